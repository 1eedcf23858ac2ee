/**
 * Charts drawn on the server: d3-scale and d3-shape turn a series into SVG paths and ticks here,
 * so no chart code ships to the browser (the page renders the geometry as plain <svg>).
 */
import { scaleBand, scaleLinear, scalePoint } from 'd3-scale';
import { area, curveMonotoneX, line } from 'd3-shape';
import type { Bucket, ChartGeometry, TopPin } from '~/types/analytics';

const WIDTH = 640;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 12, bottom: 28, left: 40 };

const label = (key: string) => {
  if (key.length === 7) return new Date(`${key}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
  return new Date(`${key}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
};

function yAxis(max: number) {
  const y = scaleLinear()
    .domain([0, Math.max(1, max)])
    .nice()
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  return { y, ticks: y.ticks(4).filter(Number.isInteger).map((t) => ({ y: y(t), label: String(t) })) };
}

const plot = { left: MARGIN.left, top: MARGIN.top, right: WIDTH - MARGIN.right, bottom: HEIGHT - MARGIN.bottom };

/** A line (with the area under it) over time. */
export function lineChart(series: Bucket[], pick: (b: Bucket) => number = (b) => b.value): ChartGeometry {
  const x = scalePoint<string>()
    .domain(series.map((b) => b.key))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.1);
  const { y, ticks } = yAxis(Math.max(0, ...series.map(pick)));
  const points: [number, number][] = series.map((b) => [x(b.key) ?? MARGIN.left, y(pick(b))]);
  const every = Math.max(1, Math.ceil(series.length / 6));
  return {
    width: WIDTH,
    height: HEIGHT,
    line: line().curve(curveMonotoneX)(points) ?? '',
    area: area().curve(curveMonotoneX).y0(HEIGHT - MARGIN.bottom)(points) ?? '',
    bars: [],
    yTicks: ticks,
    xTicks: series.filter((_, i) => i % every === 0).map((b) => ({ x: x(b.key) ?? 0, label: label(b.key) })),
    plot,
  };
}

/** Bars, one per pin (the top lists). */
export function barChart(items: TopPin[]): ChartGeometry {
  const x = scaleBand<string>()
    .domain(items.map((p) => p.id))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.2);
  const { y, ticks } = yAxis(Math.max(0, ...items.map((p) => p.count)));
  return {
    width: WIDTH,
    height: HEIGHT,
    line: '',
    area: '',
    bars: items.map((p) => ({ x: x(p.id) ?? 0, y: y(p.count), width: x.bandwidth(), height: HEIGHT - MARGIN.bottom - y(p.count), key: p.name, value: p.count })),
    yTicks: ticks,
    xTicks: items.map((p, i) => ({ x: (x(p.id) ?? 0) + x.bandwidth() / 2, label: String(i + 1) })),
    plot,
  };
}
