import type { Observation } from '../observation.js';
import type { ProgramStep } from '../program.js';

/** A piece of a program that makes tool calls and ends with a value. */
export type Steps<T> = AsyncGenerator<ProgramStep, T, Observation>;

export interface SolverLimits {
  /** Candidate edits judged per episode at most. */
  maxAttempts: number;
  /**
   * Give up after this many judged edits that did not help since the last kept one: by then the ranked lines worth trying are spent, and an honest baseline says so
   * instead of burning the rest of the turn budget.
   */
  maxFruitless: number;
  reserveTurns: number;
  reserveTokens: number;
}

export const DEFAULT_SOLVER_LIMITS: SolverLimits = { maxAttempts: 80, maxFruitless: 24, reserveTurns: 3, reserveTokens: 6_000 };

/** The Solver's budget: what the loop reports after each call, and caps on tried edits. */
export class SolverBudget {
  turnsLeft: number | null = null;
  tokensLeft: number | null = null;
  attempts = 0;
  /** Judged edits that did not help since the last kept one. */
  fruitless = 0;

  constructor(readonly limits: SolverLimits = DEFAULT_SOLVER_LIMITS) {}

  /** Whether another candidate edit may be judged: the caps on edits allow it and so do the turns. */
  allowsAttempt(turns: number): boolean {
    return this.allows(turns) && this.attempts < this.limits.maxAttempts && this.fruitless < this.limits.maxFruitless;
  }

  see(observation: Observation): void {
    if (observation.turnsLeft !== null) this.turnsLeft = observation.turnsLeft;
    if (observation.tokensLeft !== null) this.tokensLeft = observation.tokensLeft;
  }

  /** Whether `turns` more calls still leave the turns and tokens to save the fix, submit and sum up. */
  allows(turns: number): boolean {
    const turnsOk = this.turnsLeft === null || this.turnsLeft - turns >= this.limits.reserveTurns;
    const tokensOk = this.tokensLeft === null || this.tokensLeft >= this.limits.reserveTokens;
    return turnsOk && tokensOk;
  }
}

/** Make one tool call and read the budget off its observation. */
export async function* ask(step: ProgramStep, budget: SolverBudget): Steps<Observation> {
  const observation = yield step;
  budget.see(observation);
  return observation;
}
