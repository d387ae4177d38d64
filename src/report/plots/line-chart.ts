import { emptyPlot, frame, type FrameOptions } from './frame.js';
import { el, fmt, round, tip } from './svg.js';

export interface LineSeries {
  name: string;
  color: string;
  /** One value per category; null leaves a gap (e.g. no order-2 bugs that step). */
  values: ReadonlyArray<number | null>;
  dash?: boolean;
}

export interface LineChartOptions extends Omit<FrameOptions, 'legend' | 'yDomain'> {
  series: readonly LineSeries[];
  /** Fixed y range (rates: [0, 1]); otherwise the data's range, widened to include 0. */
  yDomain?: [number, number];
  /** A shaded reference band, e.g. the solve rates where the Injector's reward peaks. */
  band?: { from: number; to: number; label: string };
}

/**
 * Lines over categories, a dot per value (class `pt`, with a tooltip). Each series is a
 * `<g class="series" data-points="N">` holding its N dots; the `<svg>` carries the total.
 */
export function lineChart(options: LineChartOptions): string {
  const values = options.series.flatMap((series) => series.values.filter((value): value is number => value !== null && Number.isFinite(value)));
  if (values.length === 0) return emptyPlot(options.title, 'no data in this run');
  const yDomain = options.yDomain ?? [Math.min(0, ...values), Math.max(0, ...values)];
  const empty = (series: LineSeries): boolean => series.values.every((value) => value === null || !Number.isFinite(value));
  const legend = options.series.length > 1
    ? options.series.map((series) => ({ name: empty(series) ? `${series.name} (no data)` : series.name, color: series.color, dash: series.dash, line: true }))
    : [];
  const f = frame({ ...options, yDomain, legend });
  let body = '';
  if (options.band) {
    const [top, bottom] = [f.y.at(Math.min(options.band.to, f.y.max)), f.y.at(Math.max(options.band.from, f.y.min))];
    body += el('rect', { x: f.box.left, y: top, width: f.box.right - f.box.left, height: Math.max(bottom - top, 1), fill: '#009E73', opacity: 0.12 }, tip(options.band.label));
  }
  let total = 0;
  for (const series of options.series) {
    const points = series.values.map((value, index) => (value === null || !Number.isFinite(value) ? null : { x: f.x.center(index), y: f.y.at(value), value, index }));
    let path = '';
    points.forEach((point, index) => {
      if (point) path += `${points[index - 1] ? 'L' : 'M'}${round(point.x)} ${round(point.y)}`;
    });
    const shown = points.filter((point) => point !== null);
    const radius = shown.length > 60 ? 2 : 3.2;
    const dots = shown
      .map((point) => el('circle', { class: 'pt', cx: point.x, cy: point.y, r: radius, fill: series.color }, tip(`${series.name} · ${options.xLabel} ${options.categories[point.index]}: ${fmt(point.value)}`)))
      .join('');
    const line = el('path', { d: path, fill: 'none', stroke: series.color, 'stroke-width': 2, 'stroke-dasharray': series.dash ? '6 4' : null, 'stroke-linejoin': 'round' });
    body += el('g', { class: 'series', 'data-series': series.name, 'data-points': shown.length }, line + dots);
    total += shown.length;
  }
  return f.svg(body, total);
}
