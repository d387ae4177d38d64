import { describe, expect, it } from 'vitest';
import { readRun } from '../../../src/report/read-run.js';
import { formatTextSummary } from '../../../src/report/text-summary.js';
import { fixtureRun } from './fixture-runs.js';

/** The row of `step` split into its columns. */
function columns(text: string, step: number): string[] {
  const row = text.split('\n').find((line) => line.trimStart().startsWith(`${step} `));
  if (!row) throw new Error(`no row for step ${step} in\n${text}`);
  return row.trim().split(/\s{2,}/);
}

describe('formatTextSummary', () => {
  it('one headline with the run totals, then a row per step', async () => {
    const text = formatTextSummary(await readRun(fixtureRun('selfplay-trainer')));
    const [headline, header] = text.split('\n');
    expect(headline).toBe(
      'run selfplay-trainer: 4 step(s), 20 episodes (2 discarded), 9/14 valid bugs (64%), solve rate 31% (16/52), mean reward injector −0.36 solver −0.38, 1h 04m',
    );
    expect(header!.split(/\s{2,}/)).toEqual(['step', 'eps', 'disc', 'valid', 'rejections', 'solve o1', 'o2', 'inj r', 'sol r', 'H strat', 'H ops', 'runs', 'eps/h', 'stale']);
    expect(columns(text, 0)).toEqual(['0', '5', '1', '2/3 67%', 'parser 1', '13%', '0%', '−0.42', '−0.83', '0.92', '1.00', '–', '20.0', '0']);
    expect(columns(text, 3)).toEqual(['3', '5', '0', '2/4 50%', 'no-submission 1, parser 1', '13%', '25%', '−0.56', '−0.67', '0.81', '1.00', '–', '17.4', '2']);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('one stability line: step means of both roles, first → last step (method §10)', async () => {
    const lines = formatTextSummary(await readRun(fixtureRun('selfplay-trainer'))).split('\n');
    expect(lines.filter((line) => line.startsWith('stability'))).toEqual([
      'stability (step mean over both roles, first → last step): output 81 → 85 tokens/turn, format errors 1.2% → 2.9% of turns, sampled NLL 0.43 → 0.60 nats/token',
    ]);
  });

  it('the stability line says why a signal is missing: no logprobs outside tokens mode, lines older than the signals', async () => {
    // removal-torn: step 0 predates `stability`, steps 1-2 are openai mode (no logprobs).
    expect(formatTextSummary(await readRun(fixtureRun('removal-torn')))).toContain(
      '\nstability (step mean over both roles, first → last step): output 81 → 81 tokens/turn, format errors 1.6% → 1.7% of turns, sampled NLL – (no token logprobs: tokens mode only)\n',
    );
    expect(formatTextSummary({ name: 'old', steps: [baseStep()] })).toContain(
      '\nstability: not in this metrics.jsonl (written before output length, format-error rate and sampled NLL were recorded)\n',
    );
    const one = { ...baseStep(), stability: { outputTokens: { injector: [120], solver: [] }, formatErrorRate: { injector: [0.0125], solver: [] }, sampledNll: { injector: [], solver: [] } } };
    expect(formatTextSummary({ name: 'one', steps: [one] })).toContain(': output 120 tokens/turn, format errors 1.3% of turns, sampled NLL – (no token logprobs: tokens mode only)\n');
  });

  it('columns line up: every row is as wide as the header up to its last column', async () => {
    const lines = formatTextSummary(await readRun(fixtureRun('selfplay-trainer'))).split('\n').slice(1, 6);
    const stale = lines[0]!.indexOf('stale') + 'stale'.length;
    for (const line of lines) expect(line.length).toBe(stale);
  });

  it('shows a missing order as –, zero diversity as 0.00, and the notes of a torn run', async () => {
    const text = formatTextSummary(await readRun(fixtureRun('removal-torn')));
    expect(columns(text, 0)).toEqual(['0', '3', '0', '2/3 67%', 'test-script 1', '38%', '–', '−0.12', '−0.25', '0.00', '1.00', '–', '12.0', '0']);
    expect(text).toMatch(/note: the last line of metrics\.jsonl is incomplete/);
  });

  it('long runs show the last steps and count the others', async () => {
    const text = formatTextSummary(await readRun(fixtureRun('selfplay-trainer')), { maxSteps: 2 });
    expect(text).toContain('… 2 earlier step(s) not shown');
    expect(() => columns(text, 1)).toThrow();
    expect(columns(text, 2)[0]).toBe('2');
  });

  it('works on in-memory step lines (the self-play loop calls it without reading the dir)', () => {
    expect(formatTextSummary({ name: 'fresh', steps: [] })).toBe(
      'run fresh: 0 step(s), 0 episodes (0 discarded), 0/0 valid bugs (–), solve rate – (0/0), mean reward injector – solver –, 0s\n  no complete step in metrics.jsonl yet\n',
    );
  });

  it('one line of leak flags by kind over the run, only when something was flagged', async () => {
    const run = await readRun(fixtureRun('selfplay-trainer'));
    expect(formatTextSummary(run)).not.toContain('leak flags');
    const steps = run.steps.map((step, index) => (index < 2 ? { ...step, leaks: { history: 1 + index, 'package-download': 1 } } : step));
    expect(formatTextSummary({ ...run, steps })).toContain('\nleak flags (Solver tool calls that reached for what they must not), by kind: history 3, package-download 2\n');
  });

  it('per step: test runs started / full-suite ones, and a line of them by kind; – for lines written before they were counted', async () => {
    const run = await readRun(fixtureRun('selfplay-trainer'));
    expect(formatTextSummary(run)).not.toContain('test runs by kind');
    const testRuns = { original: { full: 2, restricted: 0 }, buggy: { full: 1, restricted: 3 }, order: { full: 0, restricted: 1 }, grading: { full: 4, restricted: 0 } };
    const steps = run.steps.map((step, index) => (index === 1 ? { ...step, testRuns } : step));
    const text = formatTextSummary({ ...run, steps });
    expect(columns(text, 1)[11]).toBe('11/7');
    expect(columns(text, 0)[11]).toBe('–');
    expect(text).toContain('\ntest runs by kind (full+restricted): step 1: original 2, buggy 1+3r, order 0+1r, grading 4\n');
  });

  it('long rejection lists are cut to the column', () => {
    const invalidByCheck = { existence: 3, parser: 2, 'test-script': 2, 'inverse-redundancy': 1 };
    const step = { ...baseStep(), invalidByCheck };
    const cell = columns(formatTextSummary({ name: 'r', steps: [step] }), 0)[4]!;
    expect(cell).toHaveLength(30);
    expect(cell).toBe('existence 3, parser 2, test-s…');
  });
});

function baseStep() {
  return {
    step: 0, policyVersion: 0, startedAt: '2025-12-20T08:00:00.000Z', durationMs: 60_000, episodes: 8, discarded: 0, discardReasons: {},
    valid: 0, invalidByCheck: {}, validRate: null, solverAttempts: 0, solved: 0, solveRate: { order1: null, order2: null }, higherOrder: 0,
    rewards: { injector: [], solver: [] }, bugSize: { files: [], lines: [] }, strategies: {}, operators: {}, turns: { injector: [], solver: [] },
    tokens: { injector: [], solver: [] }, stageMs: { prepare: 0, inject: 0, validate: 0, solve: 0, score: 0, emit: 0 },
    samples: { written: 0, stale: 0, masked: 0, zeroAdvantageGroups: 0 }, trainer: null,
  };
}
