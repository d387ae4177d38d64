import { describe, expect, it } from 'vitest';
import { aggregateRun } from '../../../src/report/aggregate.js';
import { readRun } from '../../../src/report/read-run.js';
import { stabilityMean } from '../../../src/report/stability-plots.js';
import { entropyBits, keysByTotal, summarise } from '../../../src/report/stats.js';
import { trainerPoint } from '../../../src/report/trainer-metrics.js';
import { fixtureRun } from './fixture-runs.js';

describe('aggregateRun on the fixture runs', () => {
  it('per step: outcomes, rates by order, rewards, diversity and throughput', async () => {
    const agg = aggregateRun(await readRun(fixtureRun('selfplay-trainer')));
    expect(agg.steps.map((step) => step.step)).toEqual([0, 1, 2, 3]);
    const [first, , , last] = agg.steps;
    expect(first).toMatchObject({
      episodes: 5,
      discarded: 1,
      discardReasons: { 'inject:sandbox-failed': 1 },
      judged: 3,
      valid: 2,
      rejections: { parser: 1 },
      solveRate: { order1: 0.125, order2: 0 },
      higherOrder: 1,
      perHour: { episodes: 20, validBugs: 8 },
      trainer: null,
    });
    expect(first!.validRate).toBeCloseTo(2 / 3);
    expect(first!.meanReward.injector).toBeCloseTo((0.55 - 0.8 - 1) / 3);
    expect(first!.meanReward.solver).toBeCloseTo((1 - 11) / 12);
    expect(first!.entropy.strategies).toBeCloseTo(0.9183, 4); // removal 2, history 1
    expect(first!.entropy.operators).toBe(1); // the two valid bugs: two operators once each
    expect(last).toMatchObject({ rejections: { parser: 1, 'no-submission': 1 }, samples: { stale: 2 } });
    expect(last!.trainer?.loss).toEqual({ all: 0.017, injector: 0.023, solver: 0.019 });
  });

  it('run totals and legend orders', async () => {
    const agg = aggregateRun(await readRun(fixtureRun('selfplay-trainer')));
    expect(agg.totals).toMatchObject({ episodes: 20, discarded: 2, valid: 9, judged: 14, solverAttempts: 52, solved: 16, durationMs: 3_870_000 });
    expect(agg.totals.validRate).toBeCloseTo(9 / 14);
    expect(agg.totals.solveRate).toBeCloseTo(16 / 52);
    expect(agg.keys.checks).toEqual(['parser', 'concealment', 'inverse-redundancy', 'no-submission']);
    expect(agg.keys.strategies).toEqual(['removal', 'history']);
    expect(agg.keys.operators[0]).toBe('revert-commit');
    expect(agg.trainerMetrics).toEqual(['loss', 'grad_norm', 'approx_kl', 'clip_frac_low', 'clip_frac_high', 'tokens_per_second', 'lr']);
  });

  it('per-bug solve rates come from the completed, scored episodes of each order', async () => {
    const agg = aggregateRun(await readRun(fixtureRun('selfplay-trainer')));
    expect([...agg.bugSolveRates.order1].sort()).toEqual([0, 0, 0.25, 0.25, 0.25, 0.25, 0.5, 0.5, 1]);
    expect([...agg.bugSolveRates.order2].sort()).toEqual([0, 0.25, 0.25, 0.5]);
  });

  it('a run of one strategy and one operator has zero diversity; no trainer, no trainer metrics', async () => {
    const agg = aggregateRun(await readRun(fixtureRun('removal-torn')));
    expect(agg.steps.map((step) => step.entropy.strategies)).toEqual([0, 0, 0]);
    expect(agg.steps.at(-1)!.entropy.operators).toBe(0);
    expect(agg.steps[0]!.solveRate.order2).toBeNull();
    expect(agg.trainerMetrics).toEqual([]);
  });

  it('stability passes through per step; a line older than it is null; step means pool both roles', async () => {
    const trainer = aggregateRun(await readRun(fixtureRun('selfplay-trainer')));
    const last = trainer.steps.at(-1)!;
    expect(last.stability!.sampledNll.injector).toEqual([0.57, 0.58, 0.59, 1.87]); // the babbling Injector of step 3
    expect(stabilityMean(last, 'sampledNll')).toBeCloseTo((0.57 + 0.58 + 0.59 + 1.87 + 0.51 * 4 + 0.5 * 5 + 0.49 * 3) / 16, 10);
    const torn = aggregateRun(await readRun(fixtureRun('removal-torn')));
    expect(torn.steps.map((step) => step.stability === null)).toEqual([true, false, false]);
    expect(torn.steps.map((step) => stabilityMean(step, 'sampledNll'))).toEqual([null, null, null]);
    expect(stabilityMean(torn.steps[0]!, 'outputTokens')).toBeNull();
    expect(stabilityMean(torn.steps[1]!, 'outputTokens')).toBeGreaterThan(0);
  });

  it('an empty run aggregates to empty series and null rates', () => {
    const agg = aggregateRun({ name: 'empty', steps: [], episodes: [] });
    expect(agg.steps).toEqual([]);
    expect(agg.totals).toMatchObject({ episodes: 0, validRate: null, solveRate: null, meanReward: { injector: null, solver: null } });
  });
});

describe('statistics', () => {
  it.each([
    [{}, null],
    [{ removal: 0 }, null],
    [{ removal: 7 }, 0],
    [{ removal: 1, history: 1 }, 1],
    [{ a: 1, b: 1, c: 1, d: 1 }, 2],
    [{ a: 3, b: 1 }, 0.8113],
  ])('entropyBits(%j) = %s', (counts, bits) => {
    const value = entropyBits(counts);
    if (bits === null) expect(value).toBeNull();
    else expect(value).toBeCloseTo(bits, 4);
  });

  it('summarise: quartiles interpolate like numpy', () => {
    expect(summarise([4, 1, 3, 2])).toEqual({ n: 4, mean: 2.5, min: 1, q1: 1.75, median: 2.5, q3: 3.25, max: 4 });
    expect(summarise([]).mean).toBeNull();
  });

  it('keysByTotal orders by the sum over all tables, then by name', () => {
    expect(keysByTotal([{ b: 1, a: 1 }, { c: 3 }, { a: 1 }])).toEqual(['c', 'a', 'b']);
  });
});

describe('trainerPoint', () => {
  it.each([
    ['the trainer step response {version, metrics}', { version: 4, metrics: { loss: 0.2, roles: { injector: { approx_kl: 0.001 } } } }, { loss: { all: 0.2 }, approx_kl: { injector: 0.001 } }],
    ['snake case with roles', { loss: 0.5, grad_norm: 2, roles: { solver: { loss: 0.4 } } }, { loss: { all: 0.5, solver: 0.4 }, grad_norm: { all: 2 } }],
    ['camel case, roles at the top level', { gradNorm: 1, approxKl: 0.01, injector: { 'grad-norm': 3 } }, { grad_norm: { all: 1, injector: 3 }, approx_kl: { all: 0.01 } }],
    ['non-numbers and unknown keys are left out', { loss: 'nan', foo: 1, tokens: { sequence: 10 }, lr: Number.NaN }, {}],
  ])('%s', (_case, trainer, expected) => {
    expect(trainerPoint(trainer)).toEqual(expected);
  });
});
