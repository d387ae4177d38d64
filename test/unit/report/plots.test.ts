import { describe, expect, it } from 'vitest';
import { distributionStrip } from '../../../src/report/plots/distribution-strip.js';
import { binCounts, histogram } from '../../../src/report/plots/histogram.js';
import { lineChart } from '../../../src/report/plots/line-chart.js';
import { bandAxis, labelledIndices, linearAxis } from '../../../src/report/plots/scales.js';
import { stackedBars } from '../../../src/report/plots/stacked-bars.js';
import { el, esc, fmt } from '../../../src/report/plots/svg.js';
import { findAll, hasClass, parseXml, type XmlNode } from './tiny-xml.js';

const axis = { title: 'a <plot> & "more"', xLabel: 'step', yLabel: 'value (units)', categories: ['0', '1', '2', '3'] };

/** Parse the SVG and check that every series' data-points equals the marks it holds, and the root's the sum. */
function checkPoints(svg: string): { root: XmlNode; series: Record<string, number> } {
  const root = parseXml(svg);
  expect(root.name).toBe('svg');
  const series: Record<string, number> = {};
  for (const group of findAll(root, hasClass('series'))) {
    const points = Number(group.attrs['data-points']);
    series[group.attrs['data-series']!] = points;
    if (group.children.some(hasClass('pt'))) expect(findAll(group, hasClass('pt')).length).toBeGreaterThan(0);
  }
  expect(Number(root.attrs['data-points'])).toBe(Object.values(series).reduce((a, b) => a + b, 0));
  return { root, series };
}

describe('plot functions', () => {
  it('lineChart: one dot per non-null value, gaps for null, well-formed with escaped text', () => {
    const svg = lineChart({ ...axis, yDomain: [0, 1], band: { from: 0.2, to: 0.26, label: 'edge <band>' }, series: [
      { name: 'order 1', color: '#000', values: [0.1, 0.5, null, 0.25] },
      { name: 'order <2>', color: '#111', values: [null, null, 1, 0], dash: true },
    ] });
    const { root, series } = checkPoints(svg);
    expect(series).toEqual({ 'order 1': 3, 'order <2>': 2 });
    const [first] = findAll(root, (node) => node.attrs['data-series'] === 'order 1');
    expect(findAll(first!, hasClass('pt'))).toHaveLength(3);
    // The null at index 2 breaks the line: the path restarts with M.
    expect(findAll(first!, (node) => node.name === 'path')[0]!.attrs.d!.match(/M/g)).toHaveLength(2);
    expect(svg).toContain('a &lt;plot&gt; &amp; &quot;more&quot;');
  });

  it('stackedBars: a rect per non-zero segment, shares stack to the top', () => {
    const svg = stackedBars({ ...axis, shares: true, series: [
      { name: 'removal', color: '#000', values: [2, 0, 1, 3] },
      { name: 'history', color: '#111', values: [2, 1, 0, 0] },
    ] });
    const { root, series } = checkPoints(svg);
    expect(series).toEqual({ removal: 3, history: 2 });
    const rects = findAll(root, hasClass('pt'));
    expect(rects).toHaveLength(5);
    // Every bar of shares reaches the same top: the smallest y of the rects at each x.
    const tops = new Map<string, number>();
    for (const rect of rects) tops.set(rect.attrs.x!, Math.min(tops.get(rect.attrs.x!) ?? Infinity, Number(rect.attrs.y)));
    expect(tops.size).toBe(4);
    expect(new Set(tops.values()).size).toBe(1);
  });

  it('distributionStrip: a dot per value, per series', () => {
    const svg = distributionStrip({ ...axis, yDomain: [-1, 1], series: [
      { name: 'injector', color: '#000', values: [[-1, 0.55], [], [0.1], [-0.8, -0.8, 0.325]] },
      { name: 'solver', color: '#111', values: [[1, -1, -1], [1], [], []] },
    ] });
    const { series } = checkPoints(svg);
    expect(series).toEqual({ injector: 6, solver: 4 });
  });

  it('distributionStrip past maxDots: boxes only, each box one plotted point', () => {
    const svg = distributionStrip({ ...axis, maxDots: 5, series: [{ name: 'solver', color: '#000', values: [[1, -1, -1], [1, 1], [], [-1, -1]] }] });
    const { root, series } = checkPoints(svg);
    expect(series).toEqual({ solver: 3 });
    expect(findAll(root, hasClass('pt')).map((node) => node.name)).toEqual(['rect', 'rect', 'rect']);
    expect(findAll(root, (node) => node.name === 'circle')).toEqual([]);
  });

  it('histogram: counts every value once, a closed last bin', () => {
    expect(binCounts([0, 0.05, 0.1, 0.25, 0.99, 1, 1.5, -0.2], [0, 1], 4)).toEqual([4, 1, 0, 3]);
    const svg = histogram({ title: 't', xLabel: 'solve rate', yLabel: 'bugs', domain: [0, 1], bins: 10, series: [
      { name: 'order 1', color: '#000', values: [0.125, 0.25, 0.25, 1] },
      { name: 'order 2', color: '#111', values: [0] },
    ] });
    const { root, series } = checkPoints(svg);
    expect(series).toEqual({ 'order 1': 4, 'order 2': 1 });
    expect(findAll(root, hasClass('pt'))).toHaveLength(4); // bins 0.1, 0.2, 0.9 (order 1) and 0 (order 2)
  });

  it.each([
    ['lineChart', () => lineChart({ ...axis, series: [{ name: 'a', color: '#000', values: [null, null, null, null] }] })],
    ['stackedBars', () => stackedBars({ ...axis, series: [{ name: 'a', color: '#000', values: [0, 0, 0, 0] }] })],
    ['distributionStrip', () => distributionStrip({ ...axis, series: [{ name: 'a', color: '#000', values: [[], [], [], []] }] })],
    ['histogram', () => histogram({ title: 't', xLabel: 'x', yLabel: 'y', domain: [0, 1], bins: 5, series: [{ name: 'a', color: '#000', values: [] }] })],
  ])('%s with no data draws a well-formed placeholder with data-points="0"', (_name, draw) => {
    const root = parseXml(draw());
    expect(root.attrs['data-points']).toBe('0');
    expect(findAll(root, (node) => node.name === 'text').map((node) => node.text)).toContain('no data in this run');
  });

  it('legends: a line series without data says so; a bar kind that never occurs is left out', () => {
    const texts = (svg: string) => findAll(parseXml(svg), (node) => node.name === 'text').map((node) => node.text);
    const line = lineChart({ ...axis, series: [{ name: 'order 1', color: '#000', values: [0.5, 1, 0, 0] }, { name: 'order 2', color: '#111', values: [null, null, null, null] }] });
    expect(texts(line)).toEqual(expect.arrayContaining(['order 1', 'order 2 (no data)']));
    const bars = stackedBars({ ...axis, series: [{ name: 'valid', color: '#000', values: [1, 2, 0, 1] }, { name: 'discarded', color: '#111', values: [0, 0, 0, 0] }] });
    expect(texts(bars)).toContain('valid');
    expect(texts(bars)).not.toContain('discarded');
  });

  it('a single step still draws (one band, centred)', () => {
    const { series } = checkPoints(lineChart({ ...axis, categories: ['0'], series: [{ name: 'a', color: '#000', values: [0.5] }] }));
    expect(series).toEqual({ a: 1 });
  });
});

describe('svg helpers and scales', () => {
  it.each([
    [0, '0'],
    [0.25, '0.25'],
    [1 / 3, '0.333'],
    [-0.8, '−0.8'],
    [1500, '1500'],
    [41_200, '41.2k'],
    [1_270_400, '1.27M'],
    [3e-6, '3e−6'],
    [0.0012, '0.0012'],
  ])('fmt(%s) = %s', (value, text) => {
    expect(fmt(value)).toBe(text);
  });

  it('escapes text and attribute values and drops empty attributes', () => {
    expect(esc(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(el('rect', { x: 1.26, y: null, hidden: false, title: '"q"' })).toBe('<rect x="1.3" title="&quot;q&quot;"/>');
  });

  it.each([
    [[0, 1], [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [[-1, 1], [-1, -0.5, 0, 0.5, 1]],
    [[0, 37], [0, 10, 20, 30, 40]],
    [[5, 5], [2, 3, 4, 5, 6, 7, 8]],
    [[0, 0], [0, 0.2, 0.4, 0.6, 0.8, 1]],
  ] as [[number, number], number[]][])('linearAxis(%j) ticks %j', (domain, ticks) => {
    const axis = linearAxis(domain, [100, 0]);
    expect(axis.ticks).toEqual(ticks);
    expect(axis.at(axis.min)).toBe(100);
    expect(axis.at(axis.max)).toBe(0);
  });

  it('bands and labels', () => {
    const band = bandAxis(4, [0, 400]);
    expect([band.width, band.center(0), band.center(3)]).toEqual([100, 50, 350]);
    expect(labelledIndices(150, 12)).toEqual([0, 20, 40, 60, 80, 100, 120, 140]);
    expect(labelledIndices(30, 12)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(labelledIndices(13, 12)).toEqual([0, 2, 4, 6, 8, 10, 12]);
    expect(labelledIndices(4, 12)).toEqual([0, 1, 2, 3]);
    expect(labelledIndices(0, 12)).toEqual([]);
  });
});
