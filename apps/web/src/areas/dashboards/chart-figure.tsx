import { Box, Center, Loader, ScrollArea, Stack, Table, Text, useComputedColorScheme } from '@mantine/core';
import type { ChartData, ChartType } from '@vigil/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Drawn = Extract<ChartType, 'bar' | 'line' | 'area' | 'pie' | 'map'>;

interface Disposable {
  resize(): void;
  dispose(): void;
}

const isEmpty = (type: ChartType, data: ChartData) => {
  if (type === 'badge') return data.value === undefined;
  if (type === 'events_table') return (data.events ?? []).length === 0;
  if (data.rows) return data.rows.length === 0;
  if (data.categories === undefined) return data.value === undefined || data.value === null;
  return (data.series ?? []).every((series) => series.values.every((value) => value === 0));
};

/** What a chart draws: ECharts for bar, line, area, pie and map (loaded on first use), tables and badges as text. */
export function ChartFigure({
  type,
  data,
  height = 240,
}: {
  type: ChartType;
  data: ChartData;
  height?: number;
}) {
  const { t } = useTranslation();
  if (isEmpty(type, data)) {
    return (
      <Center h={type === 'badge' ? 80 : height}>
        <Text c="dimmed" size="sm">
          {t('charts.noData')}
        </Text>
      </Center>
    );
  }
  switch (type) {
    case 'badge':
      return <BadgeFigure value={data.value ?? 0} />;
    case 'events_table':
      return <EventsTable data={data} height={height} />;
    case 'table':
      return <DataTable data={data} height={height} />;
    default:
      return <EChartFigure type={type} data={data} height={height} />;
  }
}

function BadgeFigure({ value }: { value: number }) {
  const { i18n } = useTranslation();
  return (
    <Center h={80}>
      <Text fz={44} fw={700} lh={1} data-testid="badge-value">
        {new Intl.NumberFormat(i18n.language).format(value)}
      </Text>
    </Center>
  );
}

function useTimeFormat(data: ChartData) {
  const { i18n } = useTranslation();
  const span = new Date(data.end).getTime() - new Date(data.begin).getTime();
  const format =
    span > 3 * 86_400_000
      ? new Intl.DateTimeFormat(i18n.language, { month: 'short', day: 'numeric', timeZone: 'UTC' })
      : new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return (iso: string) => format.format(new Date(iso));
}

function DataTable({ data, height }: { data: ChartData; height: number }) {
  const { t } = useTranslation();
  const formatTime = useTimeFormat(data);
  if (data.rows && data.columns) {
    return (
      <ScrollArea h={height}>
        <Table striped fz="xs">
          <Table.Thead>
            <Table.Tr>
              {data.columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.rows.map((row, index) => (
              <Table.Tr key={index}>
                {row.map((cell, cellIndex) => (
                  <Table.Td key={cellIndex}>
                    {cellIndex === 0 && typeof cell === 'string' ? formatTime(cell) : (cell ?? '')}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    );
  }
  if (!data.categories) {
    return <BadgeFigure value={data.value ?? 0} />;
  }
  const series = data.series ?? [];
  return (
    <ScrollArea h={height}>
      <Table striped fz="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{data.timeAxis ? t('charts.time') : t('charts.value')}</Table.Th>
            {series.map((entry) => (
              <Table.Th key={entry.name} ta="right">
                {entry.name}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.categories.map((category, index) => (
            <Table.Tr key={category}>
              <Table.Td>{data.timeAxis ? formatTime(category) : category}</Table.Td>
              {series.map((entry) => (
                <Table.Td key={entry.name} ta="right">
                  {entry.values[index] ?? 0}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function EventsTable({ data, height }: { data: ChartData; height: number }) {
  const { t, i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });
  return (
    <ScrollArea h={height}>
      <Table striped fz="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('charts.eventTime')}</Table.Th>
            <Table.Th>{t('charts.eventHost')}</Table.Th>
            <Table.Th>{t('charts.eventMessage')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(data.events ?? []).map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{format.format(new Date(event.timestamp))}</Table.Td>
              <Table.Td>{event.host ?? ''}</Table.Td>
              <Table.Td>{event.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function EChartFigure({ type, data, height }: { type: Drawn; data: ChartData; height: number }) {
  const { t, i18n } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const dark = useComputedColorScheme('light') === 'dark';
  const [state, setState] = useState<'drawing' | 'drawn' | 'failed'>('drawing');
  const language = i18n.language;
  useEffect(() => {
    let disposed = false;
    let dispose: (() => void) | undefined;
    let observer: ResizeObserver | undefined;
    // Maps bring their own module and the world's borders; the other charts share one module.
    const draw = (target: HTMLElement): Promise<Disposable> =>
      type === 'map'
        ? import('./echarts-map').then(({ drawMap }) => drawMap(target, { data, dark, language }))
        : import('./echarts').then(({ drawChart }) => drawChart(target, { type, data, dark }));
    if (element.current) {
      draw(element.current).then(
        (chart) => {
          if (disposed || !element.current) return chart.dispose();
          setState('drawn');
          if (typeof ResizeObserver !== 'undefined') {
            observer = new ResizeObserver(() => chart.resize());
            observer.observe(element.current);
          }
          dispose = () => chart.dispose();
        },
        () => !disposed && setState('failed'),
      );
    }
    return () => {
      disposed = true;
      observer?.disconnect();
      dispose?.();
    };
  }, [type, data, dark, language]);
  const values = (data.series ?? []).flatMap((series) => series.values);
  const total = values.reduce((a, b) => a + b, 0);
  const label =
    type === 'map'
      ? t('charts.mapLabel', { count: total, countries: data.categories?.length ?? 0 })
      : t('charts.figureLabel', { count: total });
  return (
    <Stack gap={0} pos="relative">
      {state === 'drawing' && (
        <Center pos="absolute" inset={0}>
          <Loader size="sm" />
        </Center>
      )}
      {state === 'failed' && (
        <Center pos="absolute" inset={0}>
          <Text c="dimmed" size="sm">
            {t('charts.drawFailed')}
          </Text>
        </Center>
      )}
      <Box ref={element} h={height} role="img" aria-label={label} />
      {type === 'map' && (
        <Text c="dimmed" size="xs">
          {t('charts.mapAttribution')}
        </Text>
      )}
    </Stack>
  );
}
