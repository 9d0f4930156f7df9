import {
  chartOption,
  DRAWN_CHART_TYPES,
  REPORT_PDF_MAX_TABLE_ROWS,
  type Chart,
  type ChartData,
  type DrawnChartType,
} from '@vigil/contracts';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { LegacyGridContainLabel } from 'echarts/features';
import { SVGRenderer } from 'echarts/renderers';
import type { Cell, PdfBuilder } from '../../platform/pdf/document';
import { svgToPng } from '../../platform/pdf/svg';

// The components the shared option names (tooltip and aria are inert in a picture but named by it).
echarts.use([
  BarChart,
  LineChart,
  PieChart,
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
