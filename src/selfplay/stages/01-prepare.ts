import type { StoredBug } from '../../corpus/read-stored-bug.js';
import { pickStrategy } from '../../roles/injector-strategy.js';
import { seededRng, type SeededRng } from '../../util/seeded-rng.js';
import { episodeId, runSeed } from '../episode-ids.js';
import type { SelfplaySettings } from '../selfplay-settings.js';
import type { AnchorBug } from '../anchoring/anchor-bug.js';
import { realFixesSection } from '../anchoring/real-fixes.js';
import { slotKey, stepAnchors, type RunAnchors } from '../anchoring/step-anchors.js';

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
  /** Set when the mix was adapted to the repo: history drawn where the repo has no usable history. */
  strategyNote?: string;
  /** Anchoring: the real bug this episode solves instead of injecting (strategy `anchor`). */
  anchor?: AnchorBug;
  /** Anchoring, history episodes: the repo's anchor bugs shown to the Injector as real fixes. */
  realFixes?: string;
}

export interface PlanInput {
  step: number;
  repos: readonly string[];
  settings: Pick<SelfplaySettings, 'episodesPerStep' | 'seed' | 'strategy'>;
  /** Solve-only mode: each repo's valid corpus bugs, in a fixed order. */
  corpus?: ReadonlyMap<string, readonly StoredBug[]> | null;
  /** Per repo, why history is not planned there (absent: history is usable, or was not probed). */
  noHistory?: ReadonlyMap<string, string>;
  /** Anchoring (`--anchor-set`): a share of the slots solve real bugs (see stepAnchors). */
  anchors?: RunAnchors | null;
}

/**
 * Stage 1 (prepare): the step's order-1 episodes, `episodesPerStep` per repo, repos in the given
 * order. Ids, seeds and strategies (`mixed` draws per rollout, method §7) are pure functions of
 * (seed, step, repo, index) and each repo's history, so a resumed run plans exactly the same
 * episodes; `mixed` plans history only where the repo has usable history. In solve-only mode
 * the corpus bugs are taken round-robin across steps, so every bug is used before any repeats.
 * With anchoring, the slots the anchor schedule picks solve a real bug instead (strategy
 * `anchor`), and history episodes are shown the repo's real fixes.
 */
export function planStep(input: PlanInput): PlannedEpisode[] {
  const { step, settings } = input;
  const plan: PlannedEpisode[] = [];
  const anchors = input.anchors ? stepAnchors(input.anchors, { step, seed: settings.seed, repos: input.repos, episodesPerStep: settings.episodesPerStep }) : new Map<string, AnchorBug>();
  for (const repo of input.repos) {
    const bugs = input.corpus?.get(repo) ?? null;
    if (bugs !== null && bugs.length === 0) continue;
    for (let index = 0; index < settings.episodesPerStep; index++) {
      const anchor = anchors.get(slotKey(repo, index));
      if (anchor) {
        const id = episodeId({ step, repo, index, seed: settings.seed, bugId: `anchor:${anchor.instanceId}` });
        plan.push({ id, step, repo, index, seed: runSeed(settings.seed, id), strategy: 'anchor', corpusBug: null, anchor });
        continue;
      }
      const corpusBug = bugs === null ? null : bugs[((step - 1) * settings.episodesPerStep + index) % bugs.length]!;
      const id = episodeId({ step, repo, index, seed: settings.seed, bugId: corpusBug?.id });
      const noHistory = input.noHistory?.get(repo);
      const rng = (): SeededRng => seededRng(`${settings.seed}:${id}`).fork('strategy');
      const strategy = corpusBug ? corpusBug.metadata.strategy : pickStrategy(settings.strategy, rng(), noHistory === undefined);
      // Said only where the adaptation changed this episode's draw.
      const adapted = !corpusBug && noHistory !== undefined && pickStrategy(settings.strategy, rng()) !== strategy;
      const realFixes = strategy === 'history' && input.anchors ? realFixesSection(input.anchors.bugs.get(repo) ?? [], seededRng(`${settings.seed}:${id}`).fork('real-fixes')) : null;
      plan.push({
        id, step, repo, index, seed: runSeed(settings.seed, id), strategy, corpusBug, ...(adapted ? { strategyNote: noHistory } : {}), ...(realFixes ? { realFixes } : {}),
      });
    }
  }
  return plan;
}
