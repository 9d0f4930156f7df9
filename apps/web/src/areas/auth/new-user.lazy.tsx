import { createLazyRoute, getRouteApi } from '@tanstack/react-router';
import { PasswordLinkPage } from './password-link-page';

const routeApi = getRouteApi('/new-user');

export const Route = createLazyRoute('/new-user')({
  component: NewUserPage,
});

function NewUserPage() {
  const { id = '', confirmation = '' } = routeApi.useSearch();
  return <PasswordLinkPage variant="newUser" id={id} confirmation={confirmation} />;
}
