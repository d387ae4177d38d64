import type { StoredBug } from '../../corpus/read-stored-bug.js';
import { pickStrategy } from '../../roles/injector-strategy.js';
import { seededRng } from '../../util/seeded-rng.js';
import { episodeId, runSeed } from '../episode-ids.js';
import type { SelfplaySettings } from '../selfplay-settings.js';

/** An order-1 episode of a step, before it runs. Everything in it follows from the settings. */
export interface PlannedEpisode {
  id: string;
  /** 1-based. */
  step: number;
  repo: string;
  index: number;
  /** Sampling seed of the episode's agent runs (each run forks its own from it). */
  seed: number;
  /** Injector strategy; in solve-only mode the corpus bug's. */
  strategy: string;
  /** Solve-only mode (`--corpus`): the stored bug this episode solves instead of injecting. */
  corpusBug: StoredBug | null;
}

export interface PlanInput {
  step: number;
  repos: readonly string[];
  settings: Pick<SelfplaySettings, 'episodesPerStep' | 'seed' | 'strategy'>;
  /** Solve-only mode: each repo's valid corpus bugs, in a fixed order. */
  corpus?: ReadonlyMap<string, readonly StoredBug[]> | null;
}

/**
 * Stage 1 (prepare): the step's order-1 episodes, `episodesPerStep` per repo, repos in the given
 * order. Ids, seeds and strategies (`mixed` draws per rollout, SPEC §7) are pure functions of
 * (seed, step, repo, index), so a resumed run plans exactly the same episodes. In solve-only mode
 * the corpus bugs are taken round-robin across steps, so every bug is used before any repeats.
 */
export function planStep(input: PlanInput): PlannedEpisode[] {
  const { step, settings } = input;
  const plan: PlannedEpisode[] = [];
  for (const repo of input.repos) {
    const bugs = input.corpus?.get(repo) ?? null;
    if (bugs !== null && bugs.length === 0) continue;
    for (let index = 0; index < settings.episodesPerStep; index++) {
      const corpusBug = bugs === null ? null : bugs[((step - 1) * settings.episodesPerStep + index) % bugs.length]!;
      const id = episodeId({ step, repo, index, seed: settings.seed, bugId: corpusBug?.id });
      const strategy = corpusBug ? corpusBug.metadata.strategy : pickStrategy(settings.strategy, seededRng(`${settings.seed}:${id}`).fork('strategy'));
      plan.push({ id, step, repo, index, seed: runSeed(settings.seed, id), strategy, corpusBug });
    }
  }
  return plan;
}
