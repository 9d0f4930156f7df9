import { createLazyRoute, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { LibraryList } from './library-list';

export const Route = createLazyRoute('/dashboards/library')({ component: LibraryPage });

/** /dashboards/library: the provider's dashboards, added to the organisation or copied to every customer. */
function LibraryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <GatedPage title={t('dashboards.library')} allowed={useHasPermission('DASHBOARD_VIEW')} maw={1100}>
      <LibraryList
        open={(dashboardId) =>
          void navigate({ to: '/dashboards/$dashboardId/view', params: { dashboardId } })
        }
      />
    </GatedPage>
  );
}
