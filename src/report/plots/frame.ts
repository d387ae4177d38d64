import { bandAxis, labelledIndices, linearAxis, type BandAxis, type LinearAxis } from './scales.js';
import { el, esc, fmt } from './svg.js';

/** A legend entry; `dash` draws a dashed line swatch, otherwise a filled square. */
export interface LegendItem {
  name: string;
  color: string;
  dash?: boolean;
  line?: boolean;
}

export interface FrameOptions {
  /** Accessible title of the SVG (the page shows its own heading). */
  title: string;
  xLabel: string;
  /** Include the unit, e.g. "reward", "lines changed", "seconds". */
  yLabel: string;
  /** One label per x category (steps, bins). */
  categories: string[];
  /** Label the band boundaries instead (categories.length + 1 labels): a histogram's bin edges. */
  xEdges?: string[];
  yDomain: [number, number];
  legend: LegendItem[];
  width?: number;
  height?: number;
  yFormat?: (value: number) => string;
}

export interface Frame {
  x: BandAxis;
  y: LinearAxis;
  box: { left: number; right: number; top: number; bottom: number };
  /** The whole `<svg>`: axes, grid, legend, then `body` (the data marks) counting `points`. */
  svg: (body: string, points: number) => string;
}

const CHAR = 6.6; // px per character at the 11px axis font: enough to lay labels out without measuring.
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"';

function legendRows(items: readonly LegendItem[], width: number): { item: LegendItem; x: number; row: number }[] {
  const placed: { item: LegendItem; x: number; row: number }[] = [];
  let [x, row] = [0, 0];
  for (const item of items) {
    const span = 22 + item.name.length * CHAR + 14;
    if (x > 0 && x + span > width) [x, row] = [0, row + 1];
    placed.push({ item, x, row });
    x += span;
  }
  return placed;
}

function legendSvg(placed: ReturnType<typeof legendRows>, left: number): string {
  return placed
    .map(({ item, x, row }) => {
      const [sx, sy] = [left + x, 12 + row * 18];
      const swatch = item.line || item.dash
        ? el('line', { x1: sx, y1: sy, x2: sx + 16, y2: sy, stroke: item.color, 'stroke-width': 2.5, 'stroke-dasharray': item.dash ? '5 3' : null })
        : el('rect', { x: sx + 3, y: sy - 5, width: 10, height: 10, rx: 2, fill: item.color });
      return swatch + el('text', { x: sx + 21, y: sy + 4, 'font-size': 11, fill: '#333' }, esc(item.name));
    })
    .join('');
}

/** Lay out a plot with a category x axis and a linear y axis. */
export function frame(options: FrameOptions): Frame {
  const width = options.width ?? 560;
  const height = options.height ?? 280;
  const format = options.yFormat ?? fmt;
  const probe = linearAxis(options.yDomain, [0, 1]);
  const left = 30 + Math.max(...probe.ticks.map((tick) => format(tick).length)) * CHAR + 8;
  const placed = legendRows(options.legend, width - left - 12);
  const rows = placed.length === 0 ? 0 : placed[placed.length - 1]!.row + 1;
  const box = { left, right: width - 12, top: 14 + rows * 18, bottom: height - 42 };
  const x = bandAxis(options.categories.length, [box.left, box.right]);
  const y = linearAxis(options.yDomain, [box.bottom, box.top]);
  const grid = y.ticks
    .map((tick) => el('line', { x1: box.left, x2: box.right, y1: y.at(tick), y2: y.at(tick), stroke: tick === 0 ? '#9a9a9a' : '#e6e6e6' })
      + el('text', { x: box.left - 6, y: y.at(tick) + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#555' }, esc(format(tick))))
    .join('');
  const labels = options.xEdges ?? options.categories;
  const maxLabels = Math.max(1, Math.floor((box.right - box.left) / (Math.max(...labels.map((c) => c.length), 1) * CHAR + 10)));
  const tickX = (index: number): number => (options.xEdges ? box.left + index * x.width : x.center(index));
  const xTicks = labelledIndices(labels.length, maxLabels)
    .map((index) => el('line', { x1: tickX(index), x2: tickX(index), y1: box.bottom, y2: box.bottom + 4, stroke: '#777' })
      + el('text', { x: tickX(index), y: box.bottom + 16, 'text-anchor': 'middle', 'font-size': 11, fill: '#555' }, esc(labels[index]!)))
    .join('');
  const axes = el('line', { x1: box.left, x2: box.left, y1: box.top, y2: box.bottom, stroke: '#777' })
    + el('line', { x1: box.left, x2: box.right, y1: box.bottom, y2: box.bottom, stroke: '#777' })
    + el('text', { x: (box.left + box.right) / 2, y: height - 8, 'text-anchor': 'middle', 'font-size': 12, fill: '#333' }, esc(options.xLabel))
    + el('text', { x: 0, y: 0, transform: `translate(14 ${(box.top + box.bottom) / 2}) rotate(-90)`, 'text-anchor': 'middle', 'font-size': 12, fill: '#333' }, esc(options.yLabel));
  return {
    x,
    y,
    box,
    svg: (body, points) =>
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" data-points="${points}" ${FONT}>`
      + el('title', {}, esc(options.title))
      + grid + xTicks + axes + legendSvg(placed, box.left) + body
      + '</svg>',
  };
}

/** A plot with nothing to draw: the frame's size, a message, and `data-points="0"`. */
export function emptyPlot(title: string, message: string, width = 560, height = 280): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" data-points="0" ${FONT}>`
    + el('title', {}, esc(title))
    + el('rect', { x: 1, y: 1, width: width - 2, height: height - 2, rx: 6, fill: '#fafafa', stroke: '#ddd', 'stroke-dasharray': '4 4' })
    + el('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle', 'font-size': 13, fill: '#888' }, esc(message))
    + '</svg>';
}
