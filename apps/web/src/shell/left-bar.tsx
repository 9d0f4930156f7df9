import { AppShell, Button, ScrollArea, Stack, Tooltip } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBuildingBank,
  IconChartBar,
  IconChevronsLeft,
  IconChevronsRight,
  IconGauge,
  IconHome,
  IconLayoutDashboard,
  IconScale,
  IconSearch,
  IconServer,
  IconSettings,
  IconTicket,
  type Icon,
} from '@tabler/icons-react';
import { useLocation } from '@tanstack/react-router';
import { activeNavArea, visibleNavEntries, type NavEntryId } from '@vigil/contracts';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavContext } from '../lib/org-context';
import { NavLinkLink } from './links';
import { OrgSelector } from './org-selector';

const ENTRY_ICONS: Record<NavEntryId, Icon> = {
  home: IconHome,
  dashboards: IconLayoutDashboard,
  reports: IconChartBar,
  tickets: IconTicket,
  events: IconSearch,
  assets: IconServer,
  fraud: IconBuildingBank,
  threat: IconAlertTriangle,
  governance: IconScale,
  risk: IconGauge,
  settings: IconSettings,
};

/**
 * The left bar (spec 1 sections 2.5, 2.6 and 2.8): the organisation selector, the entries the user may
 * open, each leading to its landing target, the active one marked, and the collapse switch.
 */
export function LeftBar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const navContext = useNavContext();
  const pathname = useLocation({ select: (location) => location.pathname });
  const active = activeNavArea(pathname);
  const entries = visibleNavEntries(navContext);
  const toggleLabel = collapsed ? t('nav.expand') : t('nav.collapse');

  return (
    <>
      <AppShell.Section p="sm">
        <OrgSelector collapsed={collapsed} onExpand={onToggle} />
      </AppShell.Section>
      <AppShell.Section grow component={ScrollArea} px="sm">
        <nav aria-label={t('nav.label')}>
          <Stack gap={2}>
            {entries.map(({ id, target }) => {
              const EntryIcon = ENTRY_ICONS[id];
              const label = t(`nav.entries.${id}`);
              const link = (
                <NavLinkLink
                  to={target.path}
                  search={target.search ?? {}}
                  label={collapsed ? undefined : label}
                  aria-label={collapsed ? label : undefined}
                  leftSection={<EntryIcon size={20} stroke={1.5} />}
                  active={active === id}
                  styles={
                    collapsed ? { root: { justifyContent: 'center' }, section: { marginInlineEnd: 0 } } : {}
                  }
                />
              );
              return collapsed ? (
                <Tooltip key={id} label={label} position="right">
                  {link}
                </Tooltip>
              ) : (
                <Fragment key={id}>{link}</Fragment>
              );
            })}
          </Stack>
        </nav>
      </AppShell.Section>
      <AppShell.Section p="sm">
        <Button
          variant="subtle"
          color="gray"
          fullWidth
          justify={collapsed ? 'center' : 'flex-start'}
          leftSection={collapsed ? undefined : <IconChevronsLeft size={18} stroke={1.5} />}
          aria-label={toggleLabel}
          aria-expanded={!collapsed}
          onClick={onToggle}
        >
          {collapsed ? <IconChevronsRight size={18} stroke={1.5} /> : t('nav.collapse')}
        </Button>
      </AppShell.Section>
    </>
  );
}
