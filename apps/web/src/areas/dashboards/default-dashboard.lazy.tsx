import { SimpleGrid, Stack, Title } from '@mantine/core';
import { createLazyRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/page-title';
import { SystemStatusCard } from './system-status-card';

export const Route = createLazyRoute('/dashboards/default')({
  component: DefaultDashboardPage,
});

function DefaultDashboardPage() {
  const { t } = useTranslation();
  usePageTitle(t('dashboards.title'));
  return (
    <Stack gap="lg">
      <Title order={1}>{t('dashboards.title')}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <SystemStatusCard />
      </SimpleGrid>
    </Stack>
  );
}
