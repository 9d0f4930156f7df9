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

/** The name the world's borders are registered under with ECharts. */
export const WORLD_MAP = 'world';

/** Light to dark blue (the reverse on a dark background) by a share from 0 to 1. */
function shade(share: number, dark: boolean): string {
  const [from, to] = dark
    ? [
        [28, 58, 94],
        [116, 192, 252],
      ]
    : [
        [208, 235, 255],
        [24, 100, 171],
      ];
  const channel = (index: number) => Math.round(from[index]! + (to[index]! - from[index]!) * share);
  return `rgb(${channel(0)}, ${channel(1)}, ${channel(2)})`;
}

/**
 * The countries of the world's borders (GeoJSON features of world-atlas, whose ids are ISO 3166-1
 * numeric codes) keyed by that code, as the map option names them.
 */
export function keyedCountries<F extends { id?: string | number; properties: object | null }>(collection: {
  features: F[];
}) {
  return {
    ...collection,
    features: collection.features.map((country) => ({
      ...country,
      properties: { ...country.properties, code: String(country.id ?? '') },
    })),
  };
}

export interface MapOptionInput {
  data: ChartData;
  dark: boolean;
  /** The ISO 3166-1 numeric code of an alpha-2 code (the data's countries). */
  numericOf: (alpha2: string) => string | undefined;
}

/**
 * The ECharts option of a map chart (events per country, countries shaded by their share of the
 * most), shared like `chartOption`; the page adds its tooltip's text. `countryOf` answers the
 * alpha-2 code of a drawn country.
 */
export function mapChartOption({ data, dark, numericOf }: MapOptionInput) {
  const values = data.series?.[0]?.values ?? [];
  const points = (data.categories ?? []).map((country, index) => ({
    name: numericOf(country) ?? country,
    value: values[index] ?? 0,
    country,
  }));
  const byCode = new Map(points.map((point) => [point.name, point.country]));
  const max = Math.max(1, ...values);
  return {
    countryOf: (code: string) => byCode.get(code),
    option: {
      aria: { enabled: true },
      backgroundColor: 'transparent',
      animation: false,
      series: [
        {
          type: 'map' as const,
          map: WORLD_MAP,
          nameProperty: 'code',
          roam: false,
          emphasis: { label: { show: false } },
          itemStyle: { areaColor: dark ? '#2e2e2e' : '#f1f3f5', borderColor: dark ? '#555' : '#ced4da' },
          // Shaded by hand rather than with ECharts' visual map, which would double the page's map module.
          data: points.map(({ name, value }) => ({
            name,
            value,
            itemStyle: { areaColor: shade(value / max, dark) },
          })),
        },
      ],
    },
  };
}
