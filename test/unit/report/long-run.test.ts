import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRun } from '../../../src/report/read-run.js';
import { renderRunReport } from '../../../src/report/render-report.js';
import { writeLongRun } from '../../../scripts/lib/long-run.js';

/** Per-step bars and boxes: grouped past 50 steps. Lines keep every step (a point each stays readable). */
const GROUPED = ['rejections', 'injector-reward', 'solver-reward', 'bug-files', 'bug-lines', 'strategy-mix', 'operator-mix', 'turns', 'tokens', 'output-tokens', 'format-error-rate', 'sampled-nll', 'stage-time', 'staleness'];

function figures(html: string): Map<string, string> {
  return new Map([...html.matchAll(/<figure class="ssr-plot" data-plot="([^"]+)".*?<\/figure>/gs)].map((match) => [match[1]!, match[0]]));
}

const marks = (figure: string): number => figure.split('class="pt"').length - 1;

describe('the run report of a 200-step run (the paper runs 150+)', () => {
  let root: string;
  let long: string;
  let short: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-long-run-'));
    await writeLongRun(join(root, 'long'), { steps: 200 });
    await writeLongRun(join(root, 'short'), { steps: 40 });
    long = renderRunReport(await readRun(join(root, 'long')), { linkBase: '', generatedAt: 'now' });
    short = renderRunReport(await readRun(join(root, 'short')), { linkBase: '', generatedAt: 'now' });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('stays under 1.5 MB, with at most 4 marks per step in any figure', () => {
    expect(long.length).toBeLessThan(1_500_000);
    const all = figures(long);
    expect(all.size).toBeGreaterThan(20);
    for (const [name, figure] of all) expect(marks(figure), name).toBeLessThanOrEqual(4 * 200);
  });

  it('draws per-step bars and boxes per group of 4 steps: 50 groups, boxes without dots', () => {
    const all = figures(long);
    for (const name of GROUPED) {
      const figure = all.get(name)!;
      expect(figure, name).toContain('step (groups of 4)');
      expect(figure, name).not.toContain('<circle class="pt"');
      // Every group's tooltip names its steps, the last one 197–200.
      expect(figure, name).toMatch(/step \(groups of 4\) 197–200/);
    }
    expect(marks(all.get('solver-reward')!)).toBe(50);
  });

  it('leaves a 40-step run one bar and one box per step, dots included', () => {
    const all = figures(short);
    for (const name of GROUPED) expect(all.get(name), name).not.toContain('groups of');
    expect(all.get('solver-reward')).toContain('<circle class="pt"');
  });
});
