import type { ChartData } from '@vigil/contracts';
import { MapChart } from 'echarts/charts';
import { AriaComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { alpha2ToNumeric } from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
// The world's borders (Natural Earth, 1:110m) stay a static file, fetched the first time a map is drawn.
import worldUrl from 'world-atlas/countries-110m.json?url';

echarts.use([MapChart, TooltipComponent, AriaComponent, SVGRenderer]);

const MAP = 'world';
const FALLBACK_SIZE = { width: 480, height: 240 };
let registered: Promise<void> | undefined;

/** Loads the borders once and registers them, each country keyed by its ISO 3166-1 numeric code. */
function registerWorld(): Promise<void> {
  registered ??= fetch(worldUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`World map not loaded (${response.status})`);
      return response.json() as Promise<Topology<{ countries: GeometryCollection<{ name: string }> }>>;
    })
    .then((topology) => {
      const countries = feature(topology, topology.objects.countries);
      const keyed = {
        ...countries,
        features: countries.features.map((country) => ({
          ...country,
          properties: { ...country.properties, code: String(country.id ?? '') },
        })),
      };
      echarts.registerMap(MAP, keyed as unknown as Parameters<typeof echarts.registerMap>[1]);
    })
    .catch((error: unknown) => {
      registered = undefined;
      throw error;
    });
  return registered;
}

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

export interface MapOptions {
  data: ChartData;
  dark: boolean;
  /** Country names in the user's language. */
  language: string;
}

/** Draws a map chart's events per country into `element`; answers the instance, which the caller disposes. */
export async function drawMap(element: HTMLElement, { data, dark, language }: MapOptions) {
  await registerWorld();
  const names = new Intl.DisplayNames([language], { type: 'region' });
  const values = data.series?.[0]?.values ?? [];
  const points = (data.categories ?? []).map((country, index) => ({
    name: alpha2ToNumeric(country) ?? country,
    value: values[index] ?? 0,
    country,
  }));
  const byCode = new Map(points.map((point) => [point.name, point.country]));
  const max = Math.max(1, ...values);
  // The map's projection needs a size: an element not laid out yet (a hidden tab) gets one until resized.
  const chart = echarts.init(element, undefined, {
    renderer: 'svg',
    width: element.clientWidth || FALLBACK_SIZE.width,
    height: element.clientHeight || FALLBACK_SIZE.height,
  });
  chart.setOption({
    aria: { enabled: true },
    backgroundColor: 'transparent',
    animation: false,
    tooltip: {
      trigger: 'item',
      confine: true,
      formatter: (item: { name: string; value: unknown }) => {
        const country = byCode.get(item.name);
        if (!country) return '';
        return `${names.of(country) ?? country}: ${new Intl.NumberFormat(language).format(Number(item.value))}`;
      },
    },
    series: [
      {
        type: 'map',
        map: MAP,
        nameProperty: 'code',
        roam: false,
        emphasis: { label: { show: false } },
        itemStyle: { areaColor: dark ? '#2e2e2e' : '#f1f3f5', borderColor: dark ? '#555' : '#ced4da' },
        // Shaded by hand rather than with ECharts' visual map, which would double this module's size.
        data: points.map(({ name, value }) => ({
          name,
          value,
          itemStyle: { areaColor: shade(value / max, dark) },
        })),
      },
    ],
  });
  return chart;
}
