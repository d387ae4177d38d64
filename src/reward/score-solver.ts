import type { Reward } from './reward.js';

export interface SolverOutcome {
  /** The final patch applied to a fresh buggy tree (git apply, --3way or patch --fuzz). */
  applied: boolean;
  /** Every test that passed on the original repo passed after the patch (missing counts as failed). */
  passedAllOriginal: boolean;
}

/**
 * method §4: +1 iff the patch applied and every test that passed on O passes; −1 otherwise. A patch
 * that does not apply cannot have repaired anything, so `passedAllOriginal` is ignored then.
 */
export function scoreSolver(outcome: SolverOutcome): Reward {
  const solved = outcome.applied && outcome.passedAllOriginal;
  const components = { applied: outcome.applied ? 1 : 0, passedAllOriginal: outcome.passedAllOriginal ? 1 : 0 };
  const reason = !outcome.applied
    ? 'the patch did not apply'
    : solved
      ? 'every test that passed on the original passes'
      : 'some test that passed on the original fails or is missing';
  return { value: solved ? 1 : -1, components, reason };
}
