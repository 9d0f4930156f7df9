import { ActionIcon, Card, Group, Skeleton, Text, Title, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { displayName, type Chart, type SearchIntervalType } from '@vigil/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../shell/query-status';
import { chartDataQuery } from './api';
import { ChartFigure } from './chart-figure';

const HEIGHT = 240;
/** What a tall tile's chart grows by beyond two charts: the grid gap and one card's title and padding. */
const ROW_EXTRA = 80;

/** One tile of a dashboard: the chart's name and what it draws over the dashboard's range. */
export function ChartTile({
  orgId,
  chart,
  intervalType,
  refreshSeconds,
  rows = 1,
}: {
  orgId: string;
  chart: Chart | null;
  intervalType: SearchIntervalType;
  refreshSeconds: number;
  /** Grid rows the tile spans; a tall tile's chart takes the taller space. */
  rows?: number;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const live = chart !== null && chart.state === 'ACTIVE';
  const data = useQuery({
    ...chartDataQuery(orgId, chart?.id ?? '', intervalType),
    enabled: live,
    refetchInterval: refreshSeconds > 0 ? refreshSeconds * 1000 : false,
  });
  const height = chart?.type === 'badge' ? 80 : rows * HEIGHT + (rows - 1) * ROW_EXTRA;
  return (
    <Card withBorder padding="md" h="100%" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" wrap="nowrap" mb="xs" gap="xs">
        <Title order={3} size="h5" id={headingId} lineClamp={1} title={chart?.name}>
          {chart ? displayName(chart.name) : t('charts.missing')}
        </Title>
        {live && (
          <Tooltip label={t('charts.refresh')}>
            <ActionIcon
              variant="subtle"
              size="sm"
              color="gray"
              aria-label={t('charts.refreshNamed', { name: chart.name })}
              loading={data.isFetching}
              onClick={() => void data.refetch()}
            >
              <IconRefresh size={14} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      {!live ? (
        <Text c="dimmed" size="sm">
          {chart ? t('charts.deletedTile') : t('charts.missingTile')}
        </Text>
      ) : data.isPending ? (
        <Skeleton h={height} aria-label={t('charts.loading')} />
      ) : data.isError ? (
        <LoadFailed title={t('charts.loadFailed')} error={data.error} onRetry={() => void data.refetch()} />
      ) : (
        <ChartFigure type={chart.type} data={data.data} height={height} />
      )}
    </Card>
  );
}
