import type { Observation } from '../observation.js';
import type { ProgramStep } from '../program.js';

/** A piece of a program that makes tool calls and ends with a value. */
export type Steps<T> = AsyncGenerator<ProgramStep, T, Observation>;

/** The Solver's budget: what the loop reports after each call, and a cap on tried edits. */
export class SolverBudget {
  turnsLeft: number | null = null;
  tokensLeft: number | null = null;
  attempts = 0;

  constructor(
    readonly limits: { maxAttempts: number; reserveTurns: number; reserveTokens: number } = { maxAttempts: 80, reserveTurns: 3, reserveTokens: 6_000 },
  ) {}

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
