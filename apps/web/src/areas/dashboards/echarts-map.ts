import { keyedCountries, mapChartOption, WORLD_MAP, type ChartData } from '@vigil/contracts';
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
      const countries = keyedCountries(feature(topology, topology.objects.countries));
      echarts.registerMap(WORLD_MAP, countries as unknown as Parameters<typeof echarts.registerMap>[1]);
    })
    .catch((error: unknown) => {
      registered = undefined;
      throw error;
    });
  return registered;
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
  const { option, countryOf } = mapChartOption({ data, dark, numericOf: alpha2ToNumeric });
  // The map's projection needs a size: an element not laid out yet (a hidden tab) gets one until resized.
  const chart = echarts.init(element, undefined, {
    renderer: 'svg',
    width: element.clientWidth || FALLBACK_SIZE.width,
    height: element.clientHeight || FALLBACK_SIZE.height,
  });
  chart.setOption({
    ...option,
    tooltip: {
      trigger: 'item',
      confine: true,
      formatter: (item: { name: string; value: unknown }) => {
        const country = countryOf(item.name);
        if (!country) return '';
        return `${names.of(country) ?? country}: ${new Intl.NumberFormat(language).format(Number(item.value))}`;
      },
    },
  });
  return chart;
}
