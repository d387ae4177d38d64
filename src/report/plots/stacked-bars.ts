import { emptyPlot, frame, type FrameOptions } from './frame.js';
import { el, fmt, tip } from './svg.js';
import { bucketCategories, groupedLabel } from './bucket-categories.js';

export interface BarSeries {
  name: string;
  color: string;
  /** One value per category (0 draws nothing). */
  values: readonly number[];
}

export interface StackedBarsOptions extends Omit<FrameOptions, 'legend' | 'yDomain'> {
  /** Bottom to top. */
  series: readonly BarSeries[];
  /** Draw each bar as shares of its total (0..1) instead of raw values. */
  shares?: boolean;
  /** Added to each segment's tooltip, e.g. "s" for seconds. */
  unit?: string;
  /** How a group of steps (past MAX_CATEGORIES) combines its values: counts add up (default), per-step amounts average. */
  grouped?: 'sum' | 'mean';
}

/**
 * Stacked bars per category. Each non-zero segment is a `rect.pt` with a tooltip; each series a
 * `<g class="series" data-points="N">` (N = its drawn segments). Past MAX_CATEGORIES categories,
 * one bar per group of consecutive ones (bucketCategories) holding the group's sums (or means).
 */
export function stackedBars(input: StackedBarsOptions): string {
  const buckets = bucketCategories(input.categories);
  // A long run: one bar per group of steps, each segment the group's sum (shares of the sums) or mean.
  const divide = (group: readonly number[]) => (input.grouped === 'mean' ? group.length : 1);
  const options: StackedBarsOptions = buckets.size === 1 ? input : {
    ...input,
    categories: buckets.labels,
    xLabel: groupedLabel(input.xLabel, buckets),
    series: input.series.map((series) => ({ ...series, values: buckets.groups.map((group) => group.reduce((sum, index) => sum + Math.max(series.values[index] ?? 0, 0), 0) / divide(group)) })),
  };
  const count = options.categories.length;
  const totals = Array.from({ length: count }, (_, index) => options.series.reduce((sum, series) => sum + Math.max(series.values[index] ?? 0, 0), 0));
  if (totals.every((value) => value === 0)) return emptyPlot(options.title, 'no data in this run');
  const yDomain: [number, number] = options.shares ? [0, 1] : [0, Math.max(...totals)];
  // A kind that never occurs (no discards in a healthy run) would only crowd the legend.
  const legend = options.series.filter((series) => series.values.some((value) => value > 0)).map(({ name, color }) => ({ name, color }));
  const f = frame({ ...options, yDomain, legend });
  const barWidth = Math.max(Math.min(f.x.width * 0.7, 48), 1);
  const base = new Array<number>(count).fill(0);
  let body = '';
  let total = 0;
  for (const series of options.series) {
    let marks = '';
    let points = 0;
    series.values.forEach((raw, index) => {
      const value = Math.max(raw, 0);
      if (value === 0 || totals[index] === 0) return;
      const scaled = options.shares ? value / totals[index]! : value;
      const [from, to] = [base[index]!, base[index]! + scaled];
      base[index] = to;
      const share = options.shares ? ` (${Math.round((value / totals[index]!) * 100)}%)` : '';
      marks += el(
        'rect',
        { class: 'pt', x: f.x.center(index) - barWidth / 2, y: f.y.at(to), width: barWidth, height: Math.max(f.y.at(from) - f.y.at(to), 0.5), fill: series.color },
        tip(`${series.name} · ${options.xLabel} ${options.categories[index]}: ${fmt(value)}${options.unit ?? ''}${share}`),
      );
      points += 1;
    });
    body += el('g', { class: 'series', 'data-series': series.name, 'data-points': points }, marks);
    total += points;
  }
  return f.svg(body, total);
}
