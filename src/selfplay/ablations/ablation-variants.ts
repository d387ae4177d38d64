/** One run of an ablation: a name (its run dir under the ablation's --out) and the selfplay flags that make it. */
export interface AblationVariant {
  name: string;
  flags: string[];
}

/** What an ablation needs besides the user's flags. */
export interface AblationInput {
  /** The ablation's --out: every variant writes `<root>/<variant>/`. */
  root: string;
  /** repair-only: the run dir whose valid bugs form the fixed corpus. */
  corpus?: string;
}

/**
 * The ablations of method §9 as `ssr selfplay` flag sets. Appended after the user's flags, so they
 * win over a conflicting --strategy or --train-roles.
 */
export const ABLATIONS: Record<string, (input: AblationInput) => AblationVariant[]> = {
  /** Both roles train: the method itself. */
  selfplay: () => [{ name: 'selfplay', flags: ['--train-roles', 'both'] }],
  /** Only Injector trajectories train (the paper: injection alone degrades the policy). */
  'inject-only': () => [{ name: 'inject-only', flags: ['--train-roles', 'injector'] }],
  /** The Solver trains on a fixed corpus of valid bugs from an earlier run; no new bugs, no order 2. */
  'repair-only': (input) => [{ name: 'repair-only', flags: ['--train-roles', 'solver', '--corpus', input.corpus ?? `${input.root}/selfplay`, '--higher-order-cap', '0'] }],
  /** Injector prompts: removal, history, direct and the default mix (paper: removal+history > removal > direct). */
  strategies: () => ['removal', 'history', 'direct', 'mixed'].map((strategy) => ({ name: `strategy-${strategy}`, flags: ['--strategy', strategy] })),
};
