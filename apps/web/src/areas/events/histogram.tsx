import { Box, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useEventTime } from './format';

export interface HistogramBucket {
  key: string;
  count: number;
}

const HEIGHT = 80;

/**
 * Hits over time as SVG bars, one per bucket (ECharts is not part of the app). The chart is one image
 * named with the totals; each bar's tooltip gives its start and count.
 */
export function HitsHistogram({ buckets, interval }: { buckets: HistogramBucket[]; interval?: string }) {
  const { t } = useTranslation();
  const format = useEventTime();
  const total = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  const max = Math.max(1, ...buckets.map((bucket) => bucket.count));
  const first = buckets[0];
  const last = buckets.at(-1);
  const label = t('events.histogram.label', {
    count: total,
    buckets: buckets.length,
    interval: interval ?? '',
    begin: first ? format(first.key) : '',
    end: last ? format(last.key) : '',
  });
  if (buckets.length === 0) return null;
  const width = 100 / buckets.length;
  return (
    <Box>
      <svg
        role="img"
        aria-label={label}
        width="100%"
        height={HEIGHT}
        viewBox={`0 0 100 ${HEIGHT}`}
        preserveAspectRatio="none"
        style={{ display: 'block' }}
      >
        {buckets.map((bucket, index) => {
          const height = bucket.count === 0 ? 0 : Math.max(1, (bucket.count / max) * HEIGHT);
          return (
            <Tooltip.Floating key={bucket.key} label={`${format(bucket.key)}: ${bucket.count}`}>
              <rect
                x={index * width + width * 0.1}
                y={HEIGHT - height}
                width={width * 0.8}
                height={height}
                fill="var(--mantine-color-blue-6)"
              />
            </Tooltip.Floating>
          );
        })}
      </svg>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {first ? format(first.key) : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {last ? format(last.key) : ''}
        </Text>
      </Group>
    </Box>
  );
}
