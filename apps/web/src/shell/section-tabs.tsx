import { Group, Switch } from '@mantine/core';
import { useLocation, useRouter } from '@tanstack/react-router';
import { activeSectionTab, sectionForPath, visibleSectionTabs } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { useNavContext } from '../lib/org-context';
import { useUpdatePreferences } from '../lib/preferences';
import { ButtonLink } from './links';

/**
 * The tabs above an area's pages (spec 1 section 2.7), those the user may open, the current one
 * marked. The dashboards carry the beta switch between the new and the old dashboards.
 */
export function SectionTabs() {
  const { t } = useTranslation();
  const pathname = useLocation({ select: (location) => location.pathname });
  const navContext = useNavContext();
  const section = sectionForPath(pathname);
  if (!section) return null;
  const tabs = visibleSectionTabs(section, navContext);
  const active = activeSectionTab(tabs, pathname);
  const dashboards = section === 'dashboards' || section === 'oldDashboards';
  if (tabs.length === 0 && !dashboards) return null;

  return (
    <Group
      component="nav"
      aria-label={t('nav.sectionLabel', { section: t(`nav.sections.${section}`) })}
      justify="space-between"
      gap="xs"
      mb="md"
      pb="xs"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap={4}>
        {tabs.map((tab) => (
          <ButtonLink
            key={tab.id}
            to={tab.path}
            search={{}}
            size="compact-md"
            variant={tab === active ? 'light' : 'subtle'}
            color={tab === active ? undefined : 'gray'}
            aria-current={tab === active ? 'page' : undefined}
            activeOptions={{ exact: true, includeSearch: false }}
          >
            {t(`nav.tabs.${tab.id}`)}
          </ButtonLink>
        ))}
      </Group>
      {dashboards && <NewDashboardsSwitch on={section === 'dashboards'} />}
    </Group>
  );
}

/** Spec 1 section 2.7: the beta switch between the new and the old dashboards, remembered per user. */
function NewDashboardsSwitch({ on }: { on: boolean }) {
  const { t } = useTranslation();
  const router = useRouter();
  const updatePreferences = useUpdatePreferences();
  return (
    <Switch
      label={t('nav.newDashboards')}
      checked={on}
      onChange={(event) => {
        const newDashboardsEnabled = event.currentTarget.checked;
        updatePreferences({ newDashboardsEnabled });
        void router.navigate({ href: newDashboardsEnabled ? '/dashboards/default' : '/dashboard' });
      }}
    />
  );
}
