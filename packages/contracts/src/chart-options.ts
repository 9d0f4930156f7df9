import type { ChartData, ChartType } from './dashboards';

/** Chart types drawn as an ECharts figure; tables and badges are drawn as text. */
export type DrawnChartType = Extract<ChartType, 'bar' | 'line' | 'area' | 'pie'>;
export const DRAWN_CHART_TYPES: readonly ChartType[] = ['bar', 'line', 'area', 'pie'];

/**
 * The ECharts option of a chart, shared by the web app (which draws it in the page) and the server
 * (which renders it to SVG for report PDFs), so both draw the same picture.
 */
export interface ChartOptionInput {
  type: DrawnChartType;
  data: ChartData;
  dark: boolean;
}

export function chartOption({ type, data, dark }: ChartOptionInput) {
  const categories = data.categories ?? [];
  const series = data.series ?? [];
  const text = dark ? '#c9c9c9' : '#495057';
  const common = {
    aria: { enabled: true },
    backgroundColor: 'transparent',
    textStyle: { color: text },
    tooltip: { trigger: type === 'pie' ? ('item' as const) : ('axis' as const), confine: true },
    legend: { show: series.length > 1, bottom: 0, type: 'scroll' as const, textStyle: { color: text } },
    animation: false,
  };
  if (type === 'pie') {
    const values = series[0]?.values ?? [];
    return {
      ...common,
      series: [
        {
          type: 'pie' as const,
          radius: ['35%', '65%'],
          label: { color: text, overflow: 'truncate' as const, width: 90 },
          data: categories.map((name, index) => ({ name, value: values[index] ?? 0 })),
        },
      ],
    };
  }
  const valueAxis = { type: 'value' as const, minInterval: 1, axisLabel: { color: text } };
  const grid = { left: 8, right: 16, top: 16, bottom: series.length > 1 ? 36 : 8, containLabel: true };
  if (!data.timeAxis) {
    // Top values read best as horizontal bars, the largest on top, names in full.
    return {
      ...common,
      grid,
      xAxis: valueAxis,
      yAxis: {
        type: 'category' as const,
        data: categories,
        inverse: true,
        axisLabel: { color: text, width: 140, overflow: 'truncate' as const },
      },
      series: series.map((entry) => ({ name: entry.name, type: 'bar' as const, data: entry.values })),
    };
  }
  const times = categories.map((key) => new Date(key).getTime());
  return {
    ...common,
    grid,
    xAxis: { type: 'time' as const, axisLabel: { color: text, hideOverlap: true } },
    yAxis: valueAxis,
    series: series.map((entry) => ({
      name: entry.name,
      type: type === 'bar' ? ('bar' as const) : ('line' as const),
      data: entry.values.map((value, index) => [times[index], value]),
      showSymbol: false,
      ...(type === 'area' ? { areaStyle: { opacity: 0.25 }, stack: 'total' } : {}),
    })),
  };
}
