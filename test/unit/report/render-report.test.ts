import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { readRun } from '../../../src/report/read-run.js';
import { renderCompareReport } from '../../../src/report/render-compare.js';
import { renderRunReport } from '../../../src/report/render-report.js';
import { linkBase } from '../../../src/report/write-report.js';
import { findAll, hasClass, parseXml } from './tiny-xml.js';
import { fixtureRun, RUNS } from './fixture-runs.js';

const RUN_PLOTS = [
  'valid-rate', 'rejections', 'solve-rate', 'solve-rate-histogram', 'injector-reward', 'solver-reward', 'bug-files', 'bug-lines',
  'strategy-mix', 'operator-mix', 'diversity', 'turns', 'tokens', 'output-tokens', 'format-error-rate', 'sampled-nll', 'throughput', 'stage-time', 'samples',
];
const NO_LOGPROBS = 'Sampled NLL (entropy proxy): no data: this run had no token logprobs (tokens mode only).';
const TRAINER_PLOTS = ['trainer-loss', 'trainer-grad-norm', 'trainer-approx-kl', 'trainer-clip-frac-low', 'trainer-clip-frac-high', 'trainer-tokens-per-second', 'trainer-lr'];

/** Each `<figure class="ssr-plot">`: its name and its SVG's data-points, the SVG checked well-formed. */
function plots(html: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const match of html.matchAll(/<figure class="ssr-plot" data-plot="([^"]+)"[^>]*>([\s\S]*?)<\/figure>/g)) {
    const svg = /<svg[\s\S]*<\/svg>/.exec(match[2]!)![0];
    const root = parseXml(svg);
    const series = findAll(root, hasClass('series'));
    expect(Number(root.attrs['data-points'])).toBe(series.reduce((sum, group) => sum + Number(group.attrs['data-points']), 0));
    found.set(match[1]!, Number(root.attrs['data-points']));
  }
  return found;
}

/** Nothing in the page may be fetched: no scripts, stylesheets, images or frames, and no URL but the SVG namespace. */
function expectSelfContained(html: string): void {
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).not.toMatch(/<(script|link|img|iframe|object|embed)\b/i);
  expect(html).not.toMatch(/\ssrc=/i);
  expect(html.match(/https?:\/\/[^\s"'<>)]+/g)?.filter((url) => url !== 'http://www.w3.org/2000/svg') ?? []).toEqual([]);
  expect(html).toContain(`Content-Security-Policy" content="default-src 'none'`);
}

/** Run `action` with one output stream captured. */
async function capture(stream: 'stdout' | 'stderr', action: () => Promise<number>): Promise<{ code: number; text: string }> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    return { code: await action(), text: chunks.join('') };
  } finally {
    spy.mockRestore();
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-render-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('renderRunReport', () => {
  it('a self-contained page with every plot drawn from data, trainer included', async () => {
    const html = renderRunReport(await readRun(fixtureRun('selfplay-trainer')), { linkBase: '' });
    expectSelfContained(html);
    const found = plots(html);
    expect([...found.keys()]).toEqual([...RUN_PLOTS, ...TRAINER_PLOTS]);
    for (const [name, points] of found) expect(points, name).toBeGreaterThan(0);
    expect(found.get('valid-rate')).toBe(4);
    expect(found.get('injector-reward')).toBe(14); // one dot per injector reward over 4 steps
    expect(found.get('solve-rate-histogram')).toBe(13); // 9 order-1 bugs + 4 order-2
    // Stability: a dot per trajectory over the 4 steps: 14 Injectors that ran + 52 scored Solver attempts.
    expect(found.get('sampled-nll')).toBe(14 + 52);
    expect(found.get('format-error-rate')).toBe(found.get('turns'));
    expect(html).toMatch(/<section id="stability"><h2>Stability<\/h2><p class="lead">Instability at scale \(gibberish outputs\)/);
    expect(html).not.toContain('No trainer in this run');
    expect(html).not.toContain('no data:');
  });

  it("shows the ssr build that created the run and the latest start's provenance from run.json", async () => {
    const run = join(dir, 'run');
    await cp(fixtureRun('selfplay-trainer'), run, { recursive: true });
    const config = JSON.parse(await readFile(join(run, 'run.json'), 'utf8')) as Record<string, unknown>;
    const provenance = { startedAt: '2026-01-01T00:00:00.000Z', pid: 7, ssr: { version: '0.1.0', gitSha: null, dirty: null }, settings: { steps: 4 }, images: { pyledger: { backend: 'docker', ref: 'ssr-repo-pyledger:abc', imageId: 'sha256:feed' } }, server: null };
    await writeFile(join(run, 'run.json'), JSON.stringify({ ...config, ssr: { version: '0.1.0', gitSha: 'a'.repeat(40), dirty: true }, provenance }));
    const html = renderRunReport(await readRun(run), { linkBase: '' });
    expect(html).toContain(`ssr 0.1.0 (${'a'.repeat(12)}, uncommitted changes)`);
    expect(html).toContain('<summary>provenance: ssr build, resolved settings, images, model server (run.json)</summary>');
    expect(html).toContain('sha256:feed');
    expectSelfContained(html);
  });

  it('without a trainer: the note instead of trainer plots; the torn-line notes on top', async () => {
    const html = renderRunReport(await readRun(fixtureRun('removal-torn')), { linkBase: '' });
    expect([...plots(html).keys()]).toEqual(RUN_PLOTS.filter((name) => name !== 'sampled-nll'));
    expect(html).toContain('No trainer in this run');
    expect(html).toMatch(/<ul class="notes"><li>the last line of metrics\.jsonl is incomplete/);
  });

  it('stability without token logprobs (openai mode): no empty NLL chart, a note saying why; an older step is a gap', async () => {
    const html = renderRunReport(await readRun(fixtureRun('removal-torn')), { linkBase: '' });
    const stability = /<section id="stability">[\s\S]*?<\/section>/.exec(html)![0];
    expect(stability).not.toContain('data-plot="sampled-nll"');
    expect(stability).toContain(`<p class="note">${NO_LOGPROBS}</p>`);
    // Step 0 predates `stability`: only steps 1 and 2 carry dots (2 + 12 and 2 + 8 trajectories).
    expect(plots(html).get('output-tokens')).toBe(24);
  });

  it('leak flags in the metrics: one solver-leaks plot after the solve-rate histogram, a bar per flag', async () => {
    const run = await readRun(fixtureRun('selfplay-trainer'));
    const steps = run.steps.map((step, index) => (index === 1 ? { ...step, leaks: { history: 2, network: 1 } } : index === 3 ? { ...step, leaks: { history: 1 } } : step));
    const found = plots(renderRunReport({ ...run, steps }, { linkBase: '' }));
    const names = [...found.keys()];
    expect(names.slice(names.indexOf('solve-rate-histogram'), names.indexOf('solve-rate-histogram') + 2)).toEqual(['solve-rate-histogram', 'solver-leaks']);
    expect(found.get('solver-leaks')).toBe(3); // history and network in step 1, history in step 3
  });

  it('a run written before the stability signals: no stability plots, one note saying so', async () => {
    const run = await readRun(fixtureRun('selfplay-trainer'));
    const old = { ...run, steps: run.steps.map(({ stability: _dropped, ...line }) => line) };
    const html = renderRunReport(old, { linkBase: '' });
    const names = [...plots(html).keys()];
    expect(names).toEqual([...RUN_PLOTS.filter((name) => !['output-tokens', 'format-error-rate', 'sampled-nll'].includes(name)), ...TRAINER_PLOTS]);
    expect(html).toContain('<p class="note">No data: this run’s metrics.jsonl was written before output length, format-error rate and sampled NLL were recorded.</p>');
  });

  it('asynchronous steps: sampling, training and overlap per step, samples by lag, and the run\'s overlap fraction', async () => {
    const run = await readRun(fixtureRun('selfplay-trainer'));
    const steps = run.steps.map((line, index) => ({
      ...line,
      samples: { ...line.samples, stale: index === 1 ? 2 : 0 },
      pipeline: { trainVersion: index, samplingMs: 10_000, trainingMs: 4000, overlapMs: index === 3 ? 0 : 3000, staleness: (index === 1 ? { 1: 5, 2: 2 } : { 0: 6 }) as Record<string, number>, lost: 0 },
    }));
    const html = renderRunReport({ ...run, steps }, { linkBase: '' });
    const found = plots(html);
    expect(found.get('pipeline-overlap')).toBe(3 * 4);
    expect(found.get('staleness')).toBe(5); // lag 0 in three steps, lags 1 and 2 in one
    const section = /<section id="pipeline">[\s\S]*?<\/section>/.exec(html)![0];
    expect(section).toContain('56% of the training time (9.0 of 16.0 s) overlapped sampling; 2 of ');
    expect(renderRunReport(run, { linkBase: '' })).toContain('written before the asynchronous loop recorded overlap and staleness');
  });

  it('the bug table embeds both diffs escaped and links the files relative to the report', async () => {
    const root = join(dir, 'run');
    await cp(fixtureRun('selfplay-trainer'), root, { recursive: true });
    const id = 'bug-0b58d8879193cf1e';
    await writeFile(join(root, 'bugs', id, 'test_weaken.diff'), 'diff --git a/t.py b/t.py\n--- a/t.py\n+++ b/t.py\n@@ -1 +1 @@\n-x = "</pre><script>alert(1)</script>"\n+x = 1\n');
    const run = await readRun(root);
    const html = renderRunReport(run, { linkBase: linkBase(join(dir, 'out', 'r.html'), root) });
    expectSelfContained(html);
    expect(html).toContain('<span class="del">-x = &quot;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;</span>');
    expect(html).toContain(`<a href="../run/bugs/${id}/bug_inject.diff">bug_inject.diff</a>`);
    expect(html.match(/<details><summary>bug_inject\.diff/g)).toHaveLength(5);
    // The order-2 bug links to its parent's row.
    const child = run.bugs.find((bug) => bug.order === 2)!;
    expect(html).toContain(`<a href="#bug-${child.parentBugId}">`);
    expect(html).toContain(`<tr id="bug-${child.parentBugId}">`);
  });

  it.each([
    ['the report in the run dir', (root: string) => join(root, 'report.html'), ''],
    ['a sibling folder', (root: string) => join(root, '..', 'reports', 'r.html'), '../run/'],
    ['a subfolder', (root: string) => join(root, 'out', 'r.html'), '../'],
  ])('linkBase: %s', (_case, out, expected) => {
    expect(linkBase(out('/x/run'), '/x/run')).toBe(expected);
  });
});

describe('renderCompareReport', () => {
  it('overlays the runs: one series and one colour per run in every plot', async () => {
    const runs = [await readRun(fixtureRun('selfplay-trainer')), await readRun(fixtureRun('removal-torn'))];
    const html = renderCompareReport(runs);
    expectSelfContained(html);
    const found = plots(html);
    expect(found.get('valid-rate')).toBe(7); // 4 + 3 steps
    expect(found.get('trainer-loss')).toBe(3); // only the first run has a trainer
    expect(found.get('output-tokens')).toBe(4 + 2); // removal-torn's step 0 predates stability
    expect(found.get('sampled-nll')).toBe(4); // only the tokens-mode run has logprobs
    expect(html).not.toContain('no data:');
    for (const match of html.matchAll(/<figure class="ssr-plot" data-plot="([^"]+)"[^>]*>([\s\S]*?)<\/figure>/g)) {
      const series = findAll(parseXml(/<svg[\s\S]*<\/svg>/.exec(match[2]!)![0]), hasClass('series'));
      expect(series.map((group) => group.attrs['data-series'])).toEqual(['selfplay-trainer', 'removal-torn']);
      expect(new Set(series.map((group) => findAll(group, (node) => node.name === 'path')[0]!.attrs.stroke)).size).toBe(2);
    }
  });
});

describe('renderCompareReport without any token logprobs', () => {
  it('leaves the NLL plot out and says so; output length and format errors stay', async () => {
    const torn = await readRun(fixtureRun('removal-torn'));
    const html = renderCompareReport([torn, { ...torn, name: 'again' }]);
    const names = [...plots(html).keys()];
    expect(names).toEqual(expect.arrayContaining(['output-tokens', 'format-error-rate']));
    expect(names).not.toContain('sampled-nll');
    expect(html).toContain('<p class="note">Sampled NLL (entropy proxy): no data: none of these runs had token logprobs (tokens mode only).</p>');
  });
});

describe('ssr report', () => {
  it('writes <run>/report.html by default and prints the text summary', async () => {
    const root = join(dir, 'run');
    await cp(fixtureRun('removal-torn'), root, { recursive: true });
    const { code, text } = await capture('stdout', () => main(['report', root]));
    expect(code).toBe(0);
    expect(text).toMatch(/^run run: 3 step\(s\)[\s\S]*wrote .*run\/report\.html\n$/);
    expect(await readFile(join(root, 'report.html'), 'utf8')).toContain('data-plot="valid-rate"');
  });

  it.each([
    ['two dirs without --compare', () => ['report', join(RUNS, 'removal-torn'), join(RUNS, 'selfplay-trainer')], /takes one run dir \(got 2\); add --compare/],
    ['--compare with one dir', () => ['report', '--compare', join(RUNS, 'removal-torn')], /--compare needs at least two run dirs, got 1/],
    ['a dir that is not a run dir', () => ['report', RUNS], /is not a run dir/],
  ])('%s is a usage error (exit 2)', async (_case, argv, message) => {
    const { code, text } = await capture('stderr', () => main(argv()));
    expect(code).toBe(2);
    expect(text).toMatch(message);
  });

  it('--compare writes the overlay to --out', async () => {
    const out = join(dir, 'cmp', 'compare.html');
    const { code, text } = await capture('stdout', () => main(['report', '--compare', '--quiet', fixtureRun('selfplay-trainer'), fixtureRun('removal-torn'), '--out', out]));
    expect([code, text]).toEqual([0, `wrote ${out}\n`]);
    expect(await readFile(out, 'utf8')).toContain('<h1>Comparison of 2 runs</h1>');
  });
});
