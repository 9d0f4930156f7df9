import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  chartOption,
  DRAWN_CHART_TYPES,
  keyedCountries,
  mapChartOption,
  WORLD_MAP,
  REPORT_PDF_MAX_TABLE_ROWS,
  type Chart,
  type ChartData,
  type DrawnChartType,
} from '@vigil/contracts';
import { BarChart, LineChart, MapChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { LegacyGridContainLabel } from 'echarts/features';
import { SVGRenderer } from 'echarts/renderers';
import countries from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Cell, PdfBuilder } from '../../platform/pdf/document';
import { svgToPng } from '../../platform/pdf/svg';

// The components the shared option names (tooltip and aria are inert in a picture but named by it).
echarts.use([
  BarChart,
  LineChart,
  PieChart,
  MapChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  AriaComponent,
  LegacyGridContainLabel,
  SVGRenderer,
]);

const FIGURE = { width: 720, height: 360 };

/** A chart drawn by ECharts' server-side SVG renderer with the web app's option, as SVG text. */
export function chartSvg(type: DrawnChartType, data: ChartData): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, ...FIGURE });
  try {
    chart.setOption(chartOption({ type, data, dark: false }));
    return chart.renderToSVGString();
  } finally {
    // An instance left behind keeps timers alive and the process from exiting.
    chart.dispose();
  }
}

let worldRegistered = false;

/** Registers the world's borders the web map draws (world-atlas, Natural Earth 1:110m), once. */
function registerWorld() {
  if (worldRegistered) return;
  const path = createRequire(import.meta.url).resolve('world-atlas/countries-110m.json');
  const topology = JSON.parse(readFileSync(path, 'utf8')) as Topology<{
    countries: GeometryCollection<{ name: string }>;
  }>;
  const countries = keyedCountries(feature(topology, topology.objects.countries));
  echarts.registerMap(WORLD_MAP, countries as unknown as Parameters<typeof echarts.registerMap>[1]);
  worldRegistered = true;
}

/** A map chart drawn like the web's, as SVG text. */
export function mapSvg(data: ChartData): string {
  registerWorld();
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, ...FIGURE });
  try {
    chart.setOption(mapChartOption({ data, dark: false, numericOf: countries.alpha2ToNumeric }).option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

const timeText = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The numbers behind a chart as a table: header and rows. */
export function chartTable(data: ChartData): { columns: string[]; rows: Cell[][] } {
  if (data.events) {
    return {
      columns: ['Time', 'Host', 'Message'],
      rows: data.events.map((event) => [timeText(event.timestamp), event.host ?? '', event.message]),
    };
  }
  if (data.rows && data.columns) {
    return { columns: data.columns, rows: data.rows };
  }
  if (data.categories) {
    const series = data.series ?? [];
    return {
      columns: [data.timeAxis ? 'Time' : 'Value', ...series.map((entry) => entry.name)],
      rows: data.categories.map((category, index) => [
        data.timeAxis ? timeText(category) : category,
        ...series.map((entry) => entry.values[index] ?? 0),
      ]),
    };
  }
  return { columns: ['Value'], rows: [[data.value ?? 0]] };
}

/** One chart's part of a report: its title, its picture (drawn types) and its data table. */
export function addChartSection(pdf: PdfBuilder, chart: Chart, data: ChartData) {
  pdf.heading(chart.name);
  if (chart.description) pdf.paragraph(chart.description, { muted: true });
  const { columns, rows } = chartTable(data);
  if (rows.length === 0) {
    pdf.paragraph('No data in this range.', { muted: true });
    return;
  }
  if (DRAWN_CHART_TYPES.includes(chart.type)) {
    const picture = svgToPng(chartSvg(chart.type as DrawnChartType, data));
    pdf.image(picture.png, picture);
  } else if (chart.type === 'map') {
    const picture = svgToPng(mapSvg(data));
    pdf.image(picture.png, picture);
  } else if (chart.type === 'badge') {
    pdf.paragraph(String(data.value ?? 0), { size: 28 });
  }
  const shown = rows.slice(0, REPORT_PDF_MAX_TABLE_ROWS);
  pdf.table(columns, shown);
  const total = Math.max(data.total ?? rows.length, rows.length);
  if (total > shown.length) {
    pdf.paragraph(`The first ${shown.length} of ${total} rows are shown.`, { muted: true });
  }
}
