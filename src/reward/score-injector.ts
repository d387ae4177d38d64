import { EngineError } from '../util/engine-error.js';
import type { Reward } from './reward.js';

/** The paper's α: the penalty for a bug every attempt solves, or none does. */
export const DEFAULT_INJECTOR_ALPHA = 0.8;

export interface InjectorOutcome {
  /** The artifact passed every consistency check. */
  valid: boolean;
  /** Scored Solver attempts that earned +1. */
  solves: number;
  /** Scored Solver attempts (discarded ones excluded); may be 0 only when `valid` is false. */
  attempts: number;
  /** In [0, 1]: above 1, −α would punish a too-easy bug harder than an invalid one. */
  alpha?: number;
}

function check(outcome: InjectorOutcome, alpha: number): void {
  const { solves, attempts, valid } = outcome;
  if (!Number.isFinite(alpha) || alpha < 0 || alpha > 1) {
    throw new EngineError('usage', `injector alpha must be a number in [0, 1], got ${alpha}`);
  }
  if (!Number.isInteger(attempts) || attempts < 0) throw new EngineError('internal', `solver attempts must be a non-negative integer, got ${attempts}`);
  if (!Number.isInteger(solves) || solves < 0) throw new EngineError('internal', `solves must be a non-negative integer, got ${solves}`);
  if (solves > attempts) throw new EngineError('internal', `solves (${solves}) exceed attempts (${attempts})`);
  // A valid bug with no scored attempt has no solve rate: the episode must be discarded instead.
  if (valid && attempts === 0) throw new EngineError('internal', 'a valid bug needs at least one scored solver attempt to be rewarded');
}

/**
 * method §5: −1 if validation failed; −α if the solve rate s is 0 or 1; 1 − (1+α)·s otherwise.
 * The middle case rewards bugs at the edge of the Solver's ability; the ends are equally bad
 * (trivial or impossible bugs teach nothing).
 *
 * @throws EngineError `usage` for α outside [0, 1]; `internal` for counts that are not
 *   non-negative integers, solves > attempts, or a valid bug with 0 attempts.
 */
export function scoreInjector(outcome: InjectorOutcome): Reward {
  const alpha = outcome.alpha ?? DEFAULT_INJECTOR_ALPHA;
  check(outcome, alpha);
  const { solves, attempts } = outcome;
  if (!outcome.valid) return { value: -1, components: { valid: 0, alpha }, reason: 'the artifact failed validation' };
  const solveRate = solves / attempts;
  const components = { valid: 1, alpha, solves, attempts, solveRate };
  if (solves === 0) return { value: -alpha, components, reason: `no attempt solved the bug (0/${attempts}): too hard` };
  if (solves === attempts) return { value: -alpha, components, reason: `every attempt solved the bug (${solves}/${attempts}): too easy` };
  return { value: 1 - (1 + alpha) * solveRate, components, reason: `solve rate ${solves}/${attempts}` };
}
