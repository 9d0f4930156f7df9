import { EmptyState, Stack, Title } from '@mantine/core';
import { IconBarrierBlock } from '@tabler/icons-react';
import { useLocation } from '@tanstack/react-router';
import {
  activeNavArea,
  activeSectionTab,
  pathHasPrefix,
  SECTION_TABS,
  sectionForPath,
} from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/page-title';

/** The catalogue key of the title of a page: its section tab, else its area. */
export function pageTitleKey(pathname: string): string {
  const section = sectionForPath(pathname);
  const tab = section ? activeSectionTab(SECTION_TABS[section], pathname) : undefined;
  if (tab) return `nav.tabs.${tab.id}`;
  const area = activeNavArea(pathname) ?? (pathHasPrefix(pathname, '/settings') ? 'settings' : null);
  if (area) return `nav.entries.${area}`;
  if (pathHasPrefix(pathname, '/connect')) return 'header.connect';
  return 'app.name';
}

/**
 * A page of an area that is not built yet: its title and an honest notice, never made-up data. The route
 * stays, so links, tabs and the document title already work.
 */
export function AreaUnavailable() {
  const { t } = useTranslation();
  const pathname = useLocation({ select: (location) => location.pathname });
  const title = t(pageTitleKey(pathname));
  usePageTitle(title);
  return (
    <Stack gap="lg">
      <Title order={1}>{title}</Title>
      <EmptyState
        icon={<IconBarrierBlock size={32} stroke={1.5} />}
        withIndicatorBackground
        title={t('shell.unavailable.title')}
        description={t('shell.unavailable.message')}
      />
    </Stack>
  );
}
