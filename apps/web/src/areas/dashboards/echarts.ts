import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { chartOption, type ChartOptionInput } from '@vigil/contracts';

// Only the chart types and components dashboards draw, so that the page's JavaScript stays small.
echarts.use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  AriaComponent,
  SVGRenderer,
]);

/** Draws a chart into `element`; answers the instance, which the caller disposes. */
export function drawChart(element: HTMLElement, options: ChartOptionInput): echarts.EChartsType {
  const chart = echarts.init(element, undefined, { renderer: 'svg' });
  chart.setOption(chartOption(options));
  return chart;
}
