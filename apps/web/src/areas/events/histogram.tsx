import { Box, Group, Text, Tooltip } from '@mantine/core';
import { HISTOGRAM_INTERVAL_MS, type HistogramInterval } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { useEventTime } from './format';

export interface HistogramBucket {
  key: string;
  count: number;
}

const HEIGHT = 80;

/**
 * Hits over time as SVG bars, one per bucket (ECharts is not part of the app). The chart is named with
 * the totals; each bar's tooltip gives its start and count. With `onZoom`, a bar is a button (click,
 * Enter or Space) narrowing the search to its bucket.
 */
export function HitsHistogram({
  buckets,
  interval,
  onZoom,
}: {
  buckets: HistogramBucket[];
  interval?: HistogramInterval;
  onZoom?: (begin: string, end: string) => void;
}) {
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
  const zoom =
    onZoom && interval
      ? (bucket: HistogramBucket) => {
          const begin = new Date(bucket.key).getTime();
          onZoom(bucket.key, new Date(begin + HISTOGRAM_INTERVAL_MS[interval] - 1).toISOString());
        }
      : undefined;
  return (
    <Box>
      <svg
        role={zoom ? 'group' : 'img'}
        aria-label={label}
        width="100%"
        height={HEIGHT}
        viewBox={`0 0 100 ${HEIGHT}`}
        preserveAspectRatio="none"
        style={{ display: 'block' }}
      >
        {buckets.map((bucket, index) => {
          const height = bucket.count === 0 ? 0 : Math.max(1, (bucket.count / max) * HEIGHT);
          const text = `${format(bucket.key)}: ${bucket.count}`;
          return (
            <Tooltip.Floating key={bucket.key} label={text}>
              {zoom ? (
                // The whole column is the target, so that short bars are as easy to hit as tall ones.
                <g
                  role="button"
                  tabIndex={0}
                  aria-label={t('events.histogram.zoom', { bucket: text })}
                  style={{ cursor: 'zoom-in', outlineOffset: -1 }}
                  onClick={() => zoom(bucket)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      zoom(bucket);
                    }
                  }}
                >
                  <rect x={index * width} y={0} width={width} height={HEIGHT} fill="transparent" />
                  <Bar index={index} width={width} height={height} />
                </g>
              ) : (
                <Bar index={index} width={width} height={height} />
              )}
            </Tooltip.Floating>
          );
        })}
      </svg>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {first ? format(first.key) : ''}
        </Text>
        {zoom && (
          <Text size="xs" c="dimmed">
            {t('events.histogram.zoomHint')}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {last ? format(last.key) : ''}
        </Text>
      </Group>
    </Box>
  );
}

function Bar({ index, width, height }: { index: number; width: number; height: number }) {
  return (
    <rect
      x={index * width + width * 0.1}
      y={HEIGHT - height}
      width={width * 0.8}
      height={height}
      fill="var(--mantine-color-blue-6)"
    />
  );
}
