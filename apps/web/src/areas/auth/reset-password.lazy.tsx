import { createLazyRoute, getRouteApi } from '@tanstack/react-router';
import { PasswordLinkPage } from './password-link-page';

const routeApi = getRouteApi('/reset-password');

export const Route = createLazyRoute('/reset-password')({
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  const { id = '', confirmation = '' } = routeApi.useSearch();
  return <PasswordLinkPage variant="reset" id={id} confirmation={confirmation} />;
}
