import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRun } from '../../../src/report/read-run.js';
import { stepScalars } from '../../../src/report/step-log/step-scalars.js';
import { formatTextSummary } from '../../../src/report/text-summary.js';
import { renderRunReport } from '../../../src/report/render-report.js';
import { fixtureRun } from './fixture-runs.js';

const heldOut = (solved: number, overlaps: number) => ({
  set: '/sets/mined', policyVersion: 1, instances: 4, invalid: 0, notJudged: 0, attempts: 4, solved, solveRate: solved / 4, passAt1: solved / 4, overlaps, dir: 'eval/step-2',
});

/** The `<figure data-plot="solve-rate">` of a page. */
const solveRateFigure = (html: string): string => /<figure class="ssr-plot" data-plot="solve-rate"[\s\S]*?<\/figure>/.exec(html)![0];

describe('the run report with --eval-set', () => {
  it('draws the held-out solve rate beside the training solve rate, at the evaluated steps, and shows the latest with the overlap count', async () => {
    const run = await readRun(fixtureRun('selfplay-trainer'));
    const plain = solveRateFigure(renderRunReport(run, { linkBase: '' }));
    const steps = run.steps.map((line, index) => (index === 1 ? { ...line, heldOut: heldOut(1, 0) } : index === 3 ? { ...line, heldOut: heldOut(3, 2) } : line));
    const html = renderRunReport({ ...run, steps }, { linkBase: '' });
    const figure = solveRateFigure(html);
    const points = (svg: string) => Number(/<svg[^>]*data-points="(\d+)"/.exec(svg)![1]);
    expect(points(figure)).toBe(points(plain) + 2);
    expect(figure).toContain('data-series="held-out (--eval-set, never trained on)" data-points="2"');
    expect(plain).not.toContain('data-series="held-out');
    expect(html).toMatch(/<div class="v">75%<\/div><div class="k">held-out solve rate after step \d+ \(3\/4 attempts\)<\/div>/);
    expect(html).toContain('<div class="v">2</div><div class="k">train/eval overlaps (same repo, commit, lines)</div>');
    // The end of ssr selfplay (and ssr report) in the terminal: one line of the held-out points.
    expect(formatTextSummary({ name: 'r', steps })).toContain(`held-out solve rate (--eval-set, never trained on): step ${steps[1]!.step} 25% (1/4), step ${steps[3]!.step} 75% (3/4); train/eval overlaps 2`);
    expect(formatTextSummary({ name: 'r', steps: run.steps })).not.toContain('held-out');
  });

  it('the starting policy\'s evaluation (eval/step-0/held-out.json) is read with the run and opens the held-out line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssr-held-out-start-'));
    try {
      await cp(fixtureRun('selfplay-trainer'), dir, { recursive: true });
      expect((await readRun(dir)).heldOutAtStart).toBeNull();
      await mkdir(join(dir, 'eval', 'step-0'), { recursive: true });
      await writeFile(join(dir, 'eval', 'step-0', 'held-out.json'), JSON.stringify({ ...heldOut(0, 0), policyVersion: 0, dir: 'eval/step-0', retried: 0, discarded: 0 }));
      const run = await readRun(dir);
      expect(run.heldOutAtStart).toMatchObject({ policyVersion: 0, solved: 0, dir: 'eval/step-0' });
      const steps = run.steps.map((line, index) => (index === 1 ? { ...line, heldOut: heldOut(1, 0) } : line));
      expect(formatTextSummary({ ...run, steps })).toContain(`held-out solve rate (--eval-set, never trained on): start 0% (0/4), step ${steps[1]!.step} 25% (1/4); train/eval overlaps 0`);
      // The report's chart: a step 0 opens the axis, where only the held-out line has a point
      // (a run's steps count from 1; the fixture's from 0).
      const fromOne = steps.map((line) => ({ ...line, step: line.step + 1 }));
      const figure = solveRateFigure(renderRunReport({ ...run, steps: fromOne }, { linkBase: '' }));
      expect(figure).toContain('data-series="held-out (--eval-set, never trained on)" data-points="2"');
      expect(figure).toContain('held-out (--eval-set, never trained on) · step 0: 0');
      expect(figure).not.toContain('order 1 · step 0:');
      // Before any step is evaluated, the tile shows the starting policy's.
      expect(renderRunReport(run, { linkBase: '' })).toContain('<div class="v">0%</div><div class="k">held-out solve rate of the starting policy (step 0) (0/4 attempts)</div>');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--log-to gets the held-out solve rate of an evaluated step, and nothing of it for the others', async () => {
    const [line] = (await readRun(fixtureRun('selfplay-trainer'))).steps;
    expect(stepScalars({ ...line!, heldOut: heldOut(3, 2) })).toMatchObject({ 'held_out/solve_rate': 0.75, 'held_out/attempts': 4, 'held_out/overlaps': 2 });
    expect(Object.keys(stepScalars(line!)).filter((key) => key.startsWith('held_out/'))).toEqual([]);
  });
});
