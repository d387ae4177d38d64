import { z } from 'zod';
import type { SeededRng } from '../util/seeded-rng.js';

/** The Injector prompts of method §7, one template each (`prompts/injector-<strategy>.md`). */
export const injectorStrategySchema = z.enum(['removal', 'history', 'direct']);
export type InjectorStrategy = z.infer<typeof injectorStrategySchema>;

/** What a command may ask for: one strategy, or `mixed` (the default of method §7). */
export const STRATEGY_CHOICES = ['removal', 'history', 'direct', 'mixed'] as const;
export type StrategyChoice = (typeof STRATEGY_CHOICES)[number];

/** The strategies `mixed` draws from: the paper's best combination (removal + history > removal > direct). */
export const MIXED_STRATEGIES: readonly InjectorStrategy[] = ['removal', 'history'];

/**
 * The strategy of one rollout: `mixed` draws removal or history uniformly from `rng` — only
 * removal where the repo has no usable history (`historyUsable` false), since history would
 * find nothing to change there; anything else is itself.
 */
export function pickStrategy(choice: StrategyChoice, rng: SeededRng, historyUsable = true): InjectorStrategy {
  // Draw either way, so a repo's other random choices do not shift with its history.
  const drawn = choice === 'mixed' ? rng.pick(MIXED_STRATEGIES) : choice;
  return choice === 'mixed' && !historyUsable ? 'removal' : drawn;
}
