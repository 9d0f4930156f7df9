import { Badge, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { healthQuery } from './queries';
import { LoadFailed } from '../../shell/query-status';

export function SystemStatusCard() {
  const { t } = useTranslation();
  const headingId = useId();
  const health = useQuery(healthQuery);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('dashboards.systemStatus.title')}
        </Title>
        {health.isPending ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{t('dashboards.systemStatus.loading')}</Text>
          </Group>
        ) : health.isError ? (
          <LoadFailed
            title={t('dashboards.systemStatus.loadFailed')}
            error={health.error}
            onRetry={() => void health.refetch()}
          />
        ) : (
          <Table variant="vertical" layout="fixed" withTableBorder={false}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={120}>{t('dashboards.systemStatus.status')}</Table.Th>
                <Table.Td>
                  <Badge color="green" variant="light">
                    {t('dashboards.systemStatus.ok')}
                  </Badge>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('dashboards.systemStatus.version')}</Table.Th>
                <Table.Td>{health.data.version}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('dashboards.systemStatus.database')}</Table.Th>
                <Table.Td>{t(`dashboards.systemStatus.databases.${health.data.database}`)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
