import { summarise } from '../stats.js';
import { emptyPlot, frame, type FrameOptions } from './frame.js';
import { el, fmt, tip } from './svg.js';
import { bucketCategories, groupedLabel } from './bucket-categories.js';

export interface StripSeries {
  name: string;
  color: string;
  /** The raw values of each category (one array per step). */
  values: ReadonlyArray<readonly number[]>;
}

export interface DistributionStripOptions extends Omit<FrameOptions, 'legend' | 'yDomain'> {
  series: readonly StripSeries[];
  yDomain?: [number, number];
  /** Above this many values in the whole plot, draw boxes only (default 3000): a long run's report stays small. */
  maxDots?: number;
}

// Deterministic jitter: the same run draws the same picture (a seeded hash, not Math.random).
function jitter(index: number, category: number): number {
  const h = Math.sin((index + 1) * 12.9898 + (category + 1) * 78.233) * 43758.5453;
  return h - Math.floor(h) - 0.5;
}

/**
 * Per category and series: a box (quartiles), a median tick, whiskers to min/max, a diamond at
 * the mean and every value as a jittered dot (`circle.pt`). Series sit side by side in a band.
 * Each series is a `<g class="series" data-points="N">` (N = its dots). Past `maxDots` values the
 * dots are left out and each box is the plotted point (`rect.pt`; N = its boxes). Past
 * MAX_CATEGORIES categories consecutive ones are pooled into groups (bucketCategories), boxes only.
 */
export function distributionStrip(input: DistributionStripOptions): string {
  const buckets = bucketCategories(input.categories);
  // A long run: each group of steps pools its values into one box, drawn without dots.
  const options: DistributionStripOptions = buckets.size === 1 ? input : {
    ...input,
    categories: buckets.labels,
    xLabel: groupedLabel(input.xLabel, buckets),
    series: input.series.map((series) => ({ ...series, values: buckets.groups.map((group) => group.flatMap((index) => series.values[index] ?? [])) })),
    maxDots: 0,
  };
  const all = options.series.flatMap((series) => series.values.flat());
  if (all.length === 0) return emptyPlot(options.title, 'no data in this run');
  const yDomain = options.yDomain ?? [Math.min(0, ...all), Math.max(...all)];
  const f = frame({ ...options, yDomain, legend: options.series.length > 1 ? options.series.map(({ name, color }) => ({ name, color })) : [] });
  const lanes = options.series.length;
  const lane = Math.min(f.x.width / lanes, 60);
  const boxWidth = Math.max(lane * 0.55, 2);
  const dots = all.length <= (options.maxDots ?? 3000);
  // Long runs leave a few pixels per step: outlines and whiskers would turn into a solid block.
  const thin = lane < 8;
  let body = '';
  let total = 0;
  options.series.forEach((series, seriesIndex) => {
    let marks = '';
    let points = 0;
    series.values.forEach((values, category) => {
      if (values.length === 0) return;
      const s = summarise(values);
      const cx = f.x.center(category) + (seriesIndex - (lanes - 1) / 2) * lane;
      const label = `${series.name} · ${options.xLabel} ${options.categories[category]}: n=${s.n}, mean ${fmt(s.mean!)}, median ${fmt(s.median!)}, range ${fmt(s.min!)}…${fmt(s.max!)}`;
      marks += el('line', { x1: cx, x2: cx, y1: f.y.at(s.min!), y2: f.y.at(s.max!), stroke: series.color, 'stroke-width': 1, 'stroke-opacity': thin ? 0.35 : null });
      marks += el('rect', { class: dots ? null : 'pt', x: cx - boxWidth / 2, y: f.y.at(s.q3!), width: boxWidth, height: Math.max(f.y.at(s.q1!) - f.y.at(s.q3!), 1), fill: series.color, 'fill-opacity': thin ? 0.45 : 0.18, stroke: thin ? null : series.color }, tip(label));
      marks += el('line', { x1: cx - boxWidth / 2, x2: cx + boxWidth / 2, y1: f.y.at(s.median!), y2: f.y.at(s.median!), stroke: series.color, 'stroke-width': 2 });
      const radius = values.length > 40 ? 1.6 : 2.4;
      if (dots) marks += values
        .map((value, index) => el('circle', { class: 'pt', cx: cx + jitter(index, category) * boxWidth * 0.9, cy: f.y.at(value), r: radius, fill: series.color, 'fill-opacity': 0.55 }, tip(`${series.name}: ${fmt(value)}`)))
        .join('');
      const [my, d] = [f.y.at(s.mean!), Math.min(4.5, Math.max(lane * 0.4, 1.5))];
      marks += el('path', { d: `M${cx} ${my - d}L${cx + d} ${my}L${cx} ${my + d}L${cx - d} ${my}Z`, fill: '#fff', stroke: '#222', 'stroke-width': 1.2 }, tip(label));
      points += dots ? values.length : 1;
    });
    body += el('g', { class: 'series', 'data-series': series.name, 'data-points': points }, marks);
    total += points;
  });
  return f.svg(body, total);
}
