import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { advantageEstimatorSchema, computeAdvantages, lossNormalization, type AdvantageEstimator } from '../../../src/rl/advantages.js';
import { EngineError } from '../../../src/util/engine-error.js';

interface GoldenCase {
  name: string;
  estimator: AdvantageEstimator;
  rewards: number[];
  advantages: number[];
}

const golden = JSON.parse(readFileSync(new URL('../../fixtures/rl/advantages.json', import.meta.url), 'utf8')) as GoldenCase[];

describe('computeAdvantages', () => {
  it('has golden cases for every estimator', () => {
    expect(new Set(golden.map((c) => c.estimator))).toEqual(new Set(advantageEstimatorSchema.options));
    expect(golden.length).toBeGreaterThanOrEqual(30);
  });

  it.each(golden.map((c) => [`${c.name} (${c.estimator})`, c] as const))('matches the golden fixture: %s', (_name, c) => {
    const actual = computeAdvantages(c.rewards, c.estimator);
    expect(actual).toHaveLength(c.advantages.length);
    actual.forEach((value, i) => expect(Math.abs(value - c.advantages[i]!)).toBeLessThan(1e-9));
  });

  it.each(advantageEstimatorSchema.options)('%s: a singleton and an all-equal group are exactly 0', (estimator) => {
    expect(computeAdvantages([0.7], estimator)).toEqual([0]);
    expect(computeAdvantages([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1], estimator)).toEqual(new Array(7).fill(0));
    expect(computeAdvantages([], estimator)).toEqual([]);
  });

  it('RLOO is n/(n−1) times Dr.GRPO, and both sum to 0', () => {
    const rewards = [1, -1, -1, 1, -1, -1, -1, -1];
    const rloo = computeAdvantages(rewards, 'rloo');
    const dr = computeAdvantages(rewards, 'dr-grpo');
    rloo.forEach((value, i) => expect(value).toBeCloseTo((8 / 7) * dr[i]!, 12));
    expect(rloo.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 12);
  });

  it('GRPO uses the population std', () => {
    // mean 0, population std 1 → advantages ≈ rewards.
    const [a, b] = computeAdvantages([1, -1], 'grpo');
    expect(a).toBeCloseTo(1 / (1 + 1e-6), 12);
    expect(b).toBeCloseTo(-1 / (1 + 1e-6), 12);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('rejects a reward of %d', (bad) => {
    expect(() => computeAdvantages([1, bad], 'rloo')).toThrow(EngineError);
    expect(() => computeAdvantages([1, bad], 'rloo')).toThrow(/reward 1 of the group is not a finite number/);
  });
});

describe('lossNormalization', () => {
  // By hand: samples of 4, 9 and 6 trained tokens, budget 12. GRPO / RLOO divide the summed loss by
  // the 19 trained tokens; Dr.GRPO by the constant 12 x 3 = 36 (the trainer multiplies the budget by
  // the batch's sample count: trainer/tests/test_train.py checks the loss value).
  it.each<[AdvantageEstimator, object]>([
    ['rloo', { loss_denominator: 'tokens' }],
    ['grpo', { loss_denominator: 'tokens' }],
    ['dr-grpo', { loss_denominator: 'budget', generation_budget: 12 }],
  ])('%s', (estimator, config) => {
    expect(lossNormalization(estimator, 12)).toEqual(config);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a generation budget of %s', (budget) => {
    expect(() => lossNormalization('dr-grpo', budget)).toThrow(/generation budget must be a positive integer/);
  });
});
