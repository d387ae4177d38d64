import { z } from 'zod';
import { EngineError } from '../util/engine-error.js';

/**
 * Group-relative advantage estimators (method §9). RLOO is the default: unbiased, and like Dr.GRPO
 * it does not divide by the group's std (which over-weights near-uniform groups).
 */
export const advantageEstimatorSchema = z.enum(['rloo', 'grpo', 'dr-grpo']);
export type AdvantageEstimator = z.infer<typeof advantageEstimatorSchema>;

export const DEFAULT_ADVANTAGE_ESTIMATOR: AdvantageEstimator = 'rloo';

/** Added to GRPO's std so an all-equal group gives 0, not 0/0. */
export const GRPO_STD_EPSILON = 1e-6;

const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * Advantages of one group's rewards, in order.
 *
 * - `rloo`: r_i − mean of the *other* rewards (leave-one-out), = n/(n−1)·(r_i − mean).
 * - `grpo`: (r_i − mean) / (std + 1e-6), std the *population* std (divide by n, as the GRPO
 *   and DeepSeekMath code does; the sample std would change every value by √((n−1)/n)).
 * - `dr-grpo`: r_i − mean (no std normalisation); its loss has a constant denominator (see {@link lossNormalization}).
 *
 * A group of one has no baseline, and a group of equal rewards no signal: every advantage is then
 * exactly 0. An empty group gives [].
 * The golden cases in `test/fixtures/rl/advantages.json` pin these definitions for the trainer too.
 *
 * @throws EngineError `internal` for a reward that is not a finite number.
 */
export function computeAdvantages(rewards: readonly number[], estimator: AdvantageEstimator): number[] {
  const bad = rewards.findIndex((r) => !Number.isFinite(r));
  if (bad !== -1) throw new EngineError('internal', `reward ${bad} of the group is not a finite number: ${rewards[bad]}`);
  const n = rewards.length;
  // Exact zeros when nothing differs (float sums could leave ±1e-17): such a group carries no signal.
  if (n <= 1 || rewards.every((r) => r === rewards[0])) return rewards.map(() => 0);
  const m = mean(rewards);
  switch (estimator) {
    case 'rloo': {
      const sum = rewards.reduce((s, r) => s + r, 0);
      return rewards.map((r) => r - (sum - r) / (n - 1));
    }
    case 'grpo': {
      const std = Math.sqrt(mean(rewards.map((r) => (r - m) ** 2)));
      return rewards.map((r) => (r - m) / (std + GRPO_STD_EPSILON));
    }
    case 'dr-grpo':
      return rewards.map((r) => r - m);
  }
}

/**
 * How the trainer normalises a step's summed token loss for an estimator (sent as the `config` of
 * `/train/step`). GRPO and RLOO: by the batch's trained tokens (a token-level mean). Dr.GRPO, as
 * its paper defines it: by a constant, the generation budget (the most tokens one sample may
 * generate) × the batch's sample count, so no sequence is down-weighted for being long.
 * Example: 3 samples of 4, 9 and 6 trained tokens, budget 12 → GRPO divides by 19, Dr.GRPO by 36.
 *
 * @throws EngineError `internal` for a budget that is not a positive integer.
 */
export function lossNormalization(
  estimator: AdvantageEstimator,
  generationBudget: number,
): { loss_denominator: 'tokens' } | { loss_denominator: 'budget'; generation_budget: number } {
  if (!Number.isInteger(generationBudget) || generationBudget < 1) {
    throw new EngineError('internal', `the generation budget must be a positive integer, got ${generationBudget}`);
  }
  return estimator === 'dr-grpo' ? { loss_denominator: 'budget', generation_budget: generationBudget } : { loss_denominator: 'tokens' };
}
