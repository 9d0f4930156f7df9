import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { ChartData, ChartType } from '@vigil/contracts';

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

export interface DrawOptions {
  type: Extract<ChartType, 'bar' | 'line' | 'area' | 'pie'>;
  data: ChartData;
  dark: boolean;
}

function optionOf({ type, data, dark }: DrawOptions) {
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

/** Draws a chart into `element`; answers the instance, which the caller disposes. */
export function drawChart(element: HTMLElement, options: DrawOptions): echarts.EChartsType {
  const chart = echarts.init(element, undefined, { renderer: 'svg' });
  chart.setOption(optionOf(options));
  return chart;
}
