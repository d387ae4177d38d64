import { emptyPlot, frame, type FrameOptions } from './frame.js';
import { el, fmt, tip } from './svg.js';

export interface HistogramSeries {
  name: string;
  color: string;
  values: readonly number[];
}

export interface HistogramOptions extends Omit<FrameOptions, 'legend' | 'yDomain' | 'categories' | 'xEdges'> {
  series: readonly HistogramSeries[];
  /** The binned range; values outside it go to the first / last bin. */
  domain: [number, number];
  bins: number;
}

/** Bin counts of `values` over `domain` (the last bin is closed: a rate of 1 counts). Pure. */
export function binCounts(values: readonly number[], domain: [number, number], bins: number): number[] {
  const counts = new Array<number>(bins).fill(0);
  const width = (domain[1] - domain[0]) / bins;
  for (const value of values) {
    const bin = Math.min(Math.max(Math.floor((value - domain[0]) / width + 1e-9), 0), bins - 1);
    counts[bin]! += 1;
  }
  return counts;
}

/**
 * Side-by-side bars of value counts per bin. Each non-empty bin is a `rect.pt`; each series a
 * `<g class="series" data-points="N">` where N is the number of values it binned.
 */
export function histogram(options: HistogramOptions): string {
  const [lo, hi] = options.domain;
  const width = (hi - lo) / options.bins;
  const categories = Array.from({ length: options.bins }, (_, index) => `${fmt(lo + index * width)}–${fmt(lo + (index + 1) * width)}`);
  const counts = options.series.map((series) => binCounts(series.values, options.domain, options.bins));
  const max = Math.max(0, ...counts.flat());
  if (max === 0) return emptyPlot(options.title, 'no data in this run');
  const legend = options.series.length > 1 ? options.series.map(({ name, color, values }) => ({ name: values.length === 0 ? `${name} (no data)` : name, color })) : [];
  const xEdges = Array.from({ length: options.bins + 1 }, (_, index) => fmt(lo + index * width));
  const f = frame({ ...options, categories, xEdges, yDomain: [0, max], legend });
  const lanes = options.series.length;
  const bar = (f.x.width * 0.84) / lanes;
  let body = '';
  let total = 0;
  options.series.forEach((series, seriesIndex) => {
    const marks = counts[seriesIndex]!
      .map((count, bin) => {
        if (count === 0) return '';
        const x = f.x.center(bin) - (f.x.width * 0.84) / 2 + seriesIndex * bar;
        return el('rect', { class: 'pt', x, y: f.y.at(count), width: Math.max(bar - 1, 1), height: f.y.at(0) - f.y.at(count), fill: series.color }, tip(`${series.name} · ${categories[bin]}: ${count}`));
      })
      .join('');
    body += el('g', { class: 'series', 'data-series': series.name, 'data-points': series.values.length }, marks);
    total += series.values.length;
  });
  return f.svg(body, total);
}
