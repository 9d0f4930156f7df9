import { createLazyRoute, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../shell/message-page';

const routeApi = getRouteApi('/unauthorized');

export const Route = createLazyRoute('/unauthorized')({
  component: UnauthorizedPage,
});

function UnauthorizedPage() {
  const { t } = useTranslation();
  const { url } = routeApi.useSearch();
  // The query string may carry identifiers (orgId and the like); the path alone says what was refused.
  const path = url?.replace(/\?.*$/s, '');
  return (
    <MessagePage
      title={t('unauthorized.title')}
      message={path ? t('unauthorized.message', { path }) : t('unauthorized.messageWithoutPath')}
    />
  );
}
