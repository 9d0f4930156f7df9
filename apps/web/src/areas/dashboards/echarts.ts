import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use, type EChartsType } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { ChartData, ChartType } from '@vigil/contracts';

// Only the chart types and components dashboards draw, so that the page's JavaScript stays small.
use([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, AriaComponent, SVGRenderer]);

export interface DrawOptions {
  type: Extract<ChartType, 'bar' | 'line' | 'area' | 'pie'>;
  data: ChartData;
  dark: boolean;
  /** Formats a category of a time axis (an ISO time). */
  formatTime: (iso: string) => string;
}

function optionOf({ type, data, dark, formatTime }: DrawOptions) {
  const categories = (data.categories ?? []).map((key) => (data.timeAxis ? formatTime(key) : key));
  const series = data.series ?? [];
  const text = dark ? '#c9c9c9' : '#495057';
  const common = {
    aria: { enabled: true },
    backgroundColor: 'transparent',
    textStyle: { color: text },
    tooltip: { trigger: type === 'pie' ? ('item' as const) : ('axis' as const) },
    legend: { show: series.length > 1 || type === 'pie', bottom: 0, type: 'scroll' as const, textStyle: { color: text } },
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
          center: ['50%', '45%'],
          label: { color: text },
          data: categories.map((name, index) => ({ name, value: values[index] ?? 0 })),
        },
      ],
    };
  }
  return {
    ...common,
    grid: { left: 8, right: 16, top: 16, bottom: series.length > 1 ? 36 : 8, containLabel: true },
    xAxis: { type: 'category' as const, data: categories, axisLabel: { color: text, hideOverlap: true } },
    yAxis: { type: 'value' as const, minInterval: 1, axisLabel: { color: text } },
    series: series.map((entry) => ({
      name: entry.name,
      type: type === 'bar' ? ('bar' as const) : ('line' as const),
      data: entry.values,
      showSymbol: false,
      smooth: false,
      ...(type === 'area' ? { areaStyle: { opacity: 0.25 }, stack: 'total' } : {}),
    })),
  };
}

/** Draws a chart into `element`; answers the instance, which the caller disposes. */
export function drawChart(element: HTMLElement, options: DrawOptions): EChartsType {
  const chart = init(element, undefined, { renderer: 'svg' });
  chart.setOption(optionOf(options));
  return chart;
}
