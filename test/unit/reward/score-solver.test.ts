import { describe, expect, it } from 'vitest';
import { scoreSolver } from '../../../src/reward/score-solver.js';

describe('scoreSolver', () => {
  it.each([
    { applied: true, passedAllOriginal: true, value: 1, reason: /every test that passed on the original passes/ },
    { applied: true, passedAllOriginal: false, value: -1, reason: /fails or is missing/ },
    { applied: false, passedAllOriginal: false, value: -1, reason: /did not apply/ },
    // Cannot be a repair: the grading tree never saw the patch.
    { applied: false, passedAllOriginal: true, value: -1, reason: /did not apply/ },
  ])('applied $applied, all original tests pass $passedAllOriginal → $value', ({ applied, passedAllOriginal, value, reason }) => {
    const reward = scoreSolver({ applied, passedAllOriginal });
    expect(reward.value).toBe(value);
    expect(reward.reason).toMatch(reason);
    expect(reward.components).toEqual({ applied: applied ? 1 : 0, passedAllOriginal: passedAllOriginal ? 1 : 0 });
  });
});
