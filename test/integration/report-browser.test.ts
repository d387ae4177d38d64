import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunData } from '../../src/report/read-run.js';
import { writeCompareReport, writeRunReport } from '../../src/report/write-report.js';

/** Debian's `chromium` package (scripts/setup-host installs it); playwright-core drives it as is. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/runs/', import.meta.url));

/** A real run of the example repo lands here (with its report.html), for a person to open after the test. */
const REAL_RUN = join(OUTPUT, 'report-run');

function hasStability(run: RunData, key: 'outputTokens' | 'formatErrorRate' | 'sampledNll'): boolean {
  return run.steps.some((step) => (step.stability?.[key].injector.length ?? 0) + (step.stability?.[key].solver.length ?? 0) > 0);
}

/** Stability plots without data are left out, with a note in their place (an empty chart would read as "zero"). */
const LEFT_OUT_WITHOUT_DATA = new Set(['solver-leaks', 'output-tokens', 'format-error-rate', 'sampled-nll', 'pipeline-overlap', 'staleness']);

/**
 * Whether each plot of a one-run report has data, judged from the run dir itself (not from the
 * report code): the browser must show points exactly where the run has something to show.
 */
const HAS_DATA: Record<string, (run: RunData) => boolean> = {
  'valid-rate': (run) => run.steps.some((step) => step.validRate !== null),
  rejections: (run) => run.steps.some((step) => step.valid + step.discarded + Object.values(step.invalidByCheck).reduce((a, b) => a + b, 0) > 0),
  'solve-rate': (run) => run.steps.some((step) => step.solveRate.order1 !== null || step.solveRate.order2 !== null),
  'solve-rate-histogram': (run) => run.episodes.some((episode) => episode.status === 'completed' && episode.valid !== false && episode.solverAttempts > 0),
  'solver-leaks': (run) => run.steps.some((step) => Object.values(step.leaks ?? {}).some((n) => n > 0)),
  'injector-reward': (run) => run.steps.some((step) => step.rewards.injector.length > 0),
  'solver-reward': (run) => run.steps.some((step) => step.rewards.solver.length > 0),
  'bug-files': (run) => run.steps.some((step) => step.bugSize.files.length > 0),
  'bug-lines': (run) => run.steps.some((step) => step.bugSize.lines.length > 0),
  'strategy-mix': (run) => run.steps.some((step) => Object.values(step.strategies).some((n) => n > 0)),
  'operator-mix': (run) => run.steps.some((step) => Object.values(step.operators).some((n) => n > 0)),
  diversity: (run) => run.steps.some((step) => Object.values({ ...step.strategies, ...step.operators }).some((n) => n > 0)),
  turns: (run) => run.steps.some((step) => step.turns.injector.length + step.turns.solver.length > 0),
  tokens: (run) => run.steps.some((step) => step.tokens.injector.length + step.tokens.solver.length > 0),
  'output-tokens': (run) => hasStability(run, 'outputTokens'),
  'format-error-rate': (run) => hasStability(run, 'formatErrorRate'),
  'sampled-nll': (run) => hasStability(run, 'sampledNll'),
  throughput: (run) => run.steps.some((step) => step.durationMs > 0),
  'stage-time': (run) => run.steps.some((step) => Object.values(step.stageMs).some((ms) => ms > 0)),
  samples: (run) => run.steps.length > 0,
  'pipeline-overlap': (run) => run.steps.some((step) => step.pipeline !== undefined),
  staleness: (run) => run.steps.some((step) => Object.values(step.pipeline?.staleness ?? {}).some((n) => n > 0)),
};
const RUN_PLOTS = Object.keys(HAS_DATA);

interface PlotState {
  name: string;
  points: number;
  marks: number;
  visibleMarks: number;
  width: number;
}

interface Visit {
  page: Page;
  plots: PlotState[];
  errors: string[];
  requests: string[];
}

let context: BrowserContext;
let profile: string;
let work: string;

/** Open a report and collect what the browser saw: each plot's marks, console errors, every request. */
async function visit(file: string): Promise<Visit> {
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  const plots = await page.$$eval('figure.ssr-plot', (figures) =>
    figures.map((figure) => {
      const svg = figure.querySelector('svg');
      const marks = [...figure.querySelectorAll('.pt')];
      const visible = marks.filter((mark) => {
        const box = mark.getBoundingClientRect();
        return box.width > 0 && box.height > 0;
      });
      return {
        name: (figure as HTMLElement).dataset.plot ?? '',
        points: Number(svg?.getAttribute('data-points') ?? -1),
        marks: marks.length,
        visibleMarks: visible.length,
        width: svg?.getBoundingClientRect().width ?? 0,
      };
    }),
  );
  return { page, plots, errors, requests };
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/setup-host (it installs Debian's chromium package)`);
  work = await mkdtemp(join(tmpdir(), 'ssr-report-browser-'));
  profile = join(work, 'profile');
  await mkdir(OUTPUT, { recursive: true });
  // A real, small self-play run of the example repo (model-free policy). Fresh every time: the
  // same --out would resume the finished run and run nothing. 8 Solver turns an attempt: every
  // plot's data comes from whatever the run did, and the default 128 let each attempt take 58
  // turns, three quarters of the run's time.
  await rm(REAL_RUN, { recursive: true, force: true });
  const code = await main(['selfplay', '--repo', 'pyledger', '--policy', 'procedural', '--steps', '1', '--episodes-per-step', '1', '--attempts', '2',
    '--solver-max-turns', '8', '--out', REAL_RUN]);
  if (code !== 0) throw new Error(`ssr selfplay exited ${code}; see its output above`);
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await context?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the run report in a real browser', () => {
  it('a real self-play run of the example repo: points exactly where the run has data, no console errors, no network', async () => {
    const { out, run } = await writeRunReport(REAL_RUN);
    const { page, plots, errors, requests } = await visit(out);

    expect(plots.map((plot) => plot.name)).toEqual(RUN_PLOTS.filter((name) => !LEFT_OUT_WITHOUT_DATA.has(name) || HAS_DATA[name]!(run)));
    // The procedural policy samples no tokens: no NLL chart, and the Stability section says why.
    expect(HAS_DATA['sampled-nll']!(run)).toBe(false);
    expect(await page.locator('#stability .note').allTextContents()).toEqual(['Sampled NLL (entropy proxy): no data: this run had no token logprobs (tokens mode only).']);
    for (const plot of plots) {
      const expected = HAS_DATA[plot.name]!(run);
      expect(plot.points > 0, `${plot.name}: has data in the run: ${expected}`).toBe(expected);
      expect(plot.visibleMarks, `${plot.name}: every data mark is drawn`).toBe(plot.marks);
      expect(plot.width, `${plot.name} is laid out`).toBeGreaterThan(300);
    }
    // Whatever the Injector did, an episode ran: these plots always have data.
    for (const name of ['valid-rate', 'rejections', 'injector-reward', 'strategy-mix', 'turns', 'output-tokens', 'format-error-rate', 'throughput', 'stage-time', 'samples']) {
      expect(plots.find((plot) => plot.name === name)!.points, name).toBeGreaterThan(0);
    }
    expect(await page.locator('#trainer .note').textContent()).toContain('No trainer in this run');
    expect(await page.locator('table.bugs tbody tr[id^="bug-"]').count()).toBe(run.bugCount);

    await page.screenshot({ path: join(OUTPUT, 'report.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(out).href]);
    await page.close();
  });

  it('a fixture run with a trainer: every plot, trainer metrics included, has points; a diff opens in place', async () => {
    const run = join(work, 'selfplay-trainer');
    await cp(join(FIXTURES, 'selfplay-trainer'), run, { recursive: true });
    const { out, run: data } = await writeRunReport(run);
    const { page, plots, errors, requests } = await visit(out);

    // Plots a run without their data leaves out (leak flags, the asynchronous pipeline: the fixture predates both).
    expect(plots.map((plot) => plot.name)).toEqual(expect.arrayContaining(RUN_PLOTS.filter((name) => !LEFT_OUT_WITHOUT_DATA.has(name) || HAS_DATA[name]!(data))));
    expect(plots.filter((plot) => plot.name.startsWith('trainer-')).length).toBeGreaterThan(0);
    for (const plot of plots) {
      expect(plot.points, plot.name).toBeGreaterThan(0);
      expect(plot.marks, plot.name).toBeGreaterThan(0);
      expect(plot.visibleMarks, `${plot.name}: every data mark is drawn`).toBe(plot.marks);
    }
    await page.locator('tr.diffs details summary').first().click();
    await expect.poll(() => page.locator('tr.diffs details[open] pre').first().isVisible()).toBe(true);
    expect(await page.locator('tr.diffs details[open] pre').first().textContent()).toContain('diff --git a/');

    await page.screenshot({ path: join(OUTPUT, 'report-fixture.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(out).href]);
    await page.close();
  });

  it('the --compare overlay renders one line per run in every plot', async () => {
    const { out } = await writeCompareReport([join(FIXTURES, 'selfplay-trainer'), join(FIXTURES, 'removal-torn')], { out: join(work, 'compare.html') });
    const { page, plots, errors, requests } = await visit(out);
    expect(plots.length).toBeGreaterThan(10);
    for (const plot of plots) {
      expect(plot.points, plot.name).toBeGreaterThan(0);
      expect(plot.visibleMarks, plot.name).toBe(plot.marks);
    }
    const linesPerPlot = await page.$$eval('figure.ssr-plot', (figures) => figures.map((figure) => figure.querySelectorAll('g.series').length));
    expect(new Set(linesPerPlot)).toEqual(new Set([2]));
    await page.screenshot({ path: join(OUTPUT, 'compare.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(out).href]);
    await page.close();
  });
});
