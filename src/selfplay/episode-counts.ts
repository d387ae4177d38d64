import type { EpisodeRecord } from '../corpus/episode-record.js';
import { discardCategory } from './discard.js';

/** The pseudo-check of an order-1 episode whose Injector submitted nothing (usable). */
export const NO_SUBMISSION = 'no-submission';
/** The pseudo-check of an order-1 episode whose Injector gave up (said it found no bug): not a format error. */
export const GAVE_UP = 'gave-up';
/** The pseudo-check of a valid order-1 bug whose buggy tree an earlier valid bug of the run has: counted once. */
export const DUPLICATE = 'duplicate';

/** Counts over episode records, shared by the step metrics and the run's `--json` summary. */
export interface EpisodeCounts {
  episodes: number;
  discarded: number;
  discardReasons: Record<string, number>;
  valid: number;
  invalidByCheck: Record<string, number>;
  validRate: number | null;
  solverAttempts: number;
  solved: number;
  solveRate: { order1: number | null; order2: number | null };
  higherOrder: number;
  rewards: { injector: number[]; solver: number[] };
  strategies: Record<string, number>;
}

const bump = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/**
 * Count records (the latest record of each episode) by the rules of stepMetricsSchema: every
 * episode counts in `episodes`; validity and strategies judge completed order-1 episodes only;
 * solve counts are over scored attempts of completed episodes.
 */
export function countEpisodes(records: readonly EpisodeRecord[]): EpisodeCounts {
  const counts: EpisodeCounts = {
    episodes: records.length, discarded: 0, discardReasons: {}, valid: 0, invalidByCheck: {}, validRate: null, solverAttempts: 0, solved: 0,
    solveRate: { order1: null, order2: null }, higherOrder: 0, rewards: { injector: [], solver: [] }, strategies: {},
  };
  const attempts = { 1: { scored: 0, solved: 0 }, 2: { scored: 0, solved: 0 } };
  let judged = 0;
  for (const record of records) {
    if (record.order === 2) counts.higherOrder += 1;
    if (record.status === 'discarded') {
      counts.discarded += 1;
      bump(counts.discardReasons, discardCategory(record.discardReason ?? 'unknown'));
      continue;
    }
    counts.solverAttempts += record.solverAttempts;
    counts.solved += record.solved;
    counts.rewards.solver.push(...record.rewards.solver);
    // An anchor (a real bug, no Injector) trains the Solver but judges no Injector and is no synthetic bug: countAnchors counts it.
    if (record.anchor === true) continue;
    attempts[record.order].scored += record.solverAttempts;
    attempts[record.order].solved += record.solved;
    if (record.order !== 1) continue;
    judged += 1;
    bump(counts.strategies, record.strategy);
    if (record.rewards.injector !== null) counts.rewards.injector.push(record.rewards.injector);
    if (record.valid === true && record.duplicateOf !== undefined) bump(counts.invalidByCheck, DUPLICATE);
    else if (record.valid === true) counts.valid += 1;
    else bump(counts.invalidByCheck, record.valid === null ? (record.injectorExit?.status === 'gave-up' ? GAVE_UP : NO_SUBMISSION) : (record.failedCheck ?? 'unknown'));
  }
  counts.validRate = judged === 0 ? null : counts.valid / judged;
  const rate = (order: 1 | 2): number | null => (attempts[order].scored === 0 ? null : attempts[order].solved / attempts[order].scored);
  counts.solveRate = { order1: rate(1), order2: rate(2) };
  return counts;
}
