import { describe, expect, it } from 'vitest';
import { DEFAULT_INJECTOR_ALPHA, scoreInjector } from '../../../src/reward/score-injector.js';
import { EngineError } from '../../../src/util/engine-error.js';

describe('scoreInjector', () => {
  // method §5: with N = 8 and k solves.
  it.each([
    [0, -0.8],
    [1, 0.775],
    [2, 0.55],
    [3, 0.325],
    [4, 0.1],
    [5, -0.125],
    [6, -0.35],
    [7, -0.575],
    [8, -0.8],
  ])('a valid bug solved %i times of 8 earns %d', (solves, expected) => {
    const reward = scoreInjector({ valid: true, solves, attempts: 8 });
    expect(reward.value).toBeCloseTo(expected, 12);
    expect(reward.components).toMatchObject({ valid: 1, alpha: DEFAULT_INJECTOR_ALPHA, solves, attempts: 8, solveRate: solves / 8 });
  });

  it.each([
    [0, /too hard/],
    [8, /too easy/],
    [3, /solve rate 3\/8/],
  ])('says why (%i solves)', (solves, reason) => {
    expect(scoreInjector({ valid: true, solves, attempts: 8 }).reason).toMatch(reason);
  });

  it.each([
    { solves: 0, attempts: 0 },
    { solves: 0, attempts: 8 },
    { solves: 3, attempts: 8 },
  ])('an invalid artifact earns −1 whatever the attempts ($solves/$attempts)', (counts) => {
    expect(scoreInjector({ valid: false, ...counts })).toEqual({ value: -1, components: { valid: 0, alpha: 0.8 }, reason: 'the artifact failed validation' });
  });

  it.each([
    [0.5, 0, -0.5],
    [0.5, 4, 1 - 1.5 * 0.5],
    [0, 2, 0.75],
    [1, 2, 0.5],
    [1, 4, 0],
  ])('alpha %d: %i of 8 solves earns %d', (alpha, solves, expected) => {
    expect(scoreInjector({ valid: true, solves, attempts: 8, alpha }).value).toBeCloseTo(expected, 12);
  });

  it('works for any group size (3 attempts)', () => {
    expect(scoreInjector({ valid: true, solves: 1, attempts: 3 }).value).toBeCloseTo(1 - 1.8 / 3, 12);
  });

  it.each([
    ['no attempt on a valid bug', { valid: true, solves: 0, attempts: 0 }, 'internal', /at least one scored solver attempt/],
    ['more solves than attempts', { valid: true, solves: 9, attempts: 8 }, 'internal', /solves \(9\) exceed attempts \(8\)/],
    ['more solves than attempts, invalid', { valid: false, solves: 2, attempts: 1 }, 'internal', /exceed/],
    ['negative solves', { valid: true, solves: -1, attempts: 8 }, 'internal', /solves must be a non-negative integer, got -1/],
    ['fractional attempts', { valid: true, solves: 1, attempts: 2.5 }, 'internal', /attempts must be a non-negative integer, got 2.5/],
    ['alpha above 1', { valid: true, solves: 1, attempts: 8, alpha: 1.5 }, 'usage', /alpha must be a number in \[0, 1\], got 1.5/],
    ['negative alpha', { valid: true, solves: 1, attempts: 8, alpha: -0.1 }, 'usage', /alpha/],
    ['NaN alpha', { valid: false, solves: 0, attempts: 0, alpha: Number.NaN }, 'usage', /got NaN/],
  ] as const)('throws for %s', (_name, outcome, code, message) => {
    let error: unknown;
    try {
      scoreInjector(outcome);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe(code);
    expect((error as EngineError).message).toMatch(message);
  });
});
