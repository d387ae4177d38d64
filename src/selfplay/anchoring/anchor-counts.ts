import { z } from 'zod';
import type { EpisodeRecord } from '../../corpus/episode-record.js';

const count = z.number().int().nonnegative();

/**
 * A step's anchor episodes (metrics.jsonl `anchor`, present when the run anchors): counted apart
 * from the synthetic bugs, whose solve rate (`solveRate.order1`) they are not part of. Their scored
 * attempts and rewards are in the step's `solverAttempts`, `solved` and `rewards.solver` too: they train.
 */
export const anchorMetricsSchema = z.object({
  episodes: count.describe('anchor episodes recorded in the step, discarded ones included'),
  discarded: count,
  invalid: count.describe('anchor bugs (JSONL lines) whose validation rejected them: not solved'),
  solverAttempts: count.describe('scored Solver attempts on anchor bugs'),
  solved: count,
  solveRate: z.number().min(0).max(1).nullable().describe('solved / scored attempts on anchor bugs; null with none'),
});
export type AnchorMetrics = z.infer<typeof anchorMetricsSchema>;

/** The anchor counts of a step's records (the latest record of each episode). */
export function countAnchors(records: readonly EpisodeRecord[]): AnchorMetrics {
  const anchors = records.filter((record) => record.anchor === true);
  const completed = anchors.filter((record) => record.status === 'completed');
  const solverAttempts = completed.reduce((sum, record) => sum + record.solverAttempts, 0);
  const solved = completed.reduce((sum, record) => sum + record.solved, 0);
  return {
    episodes: anchors.length,
    discarded: anchors.length - completed.length,
    invalid: completed.filter((record) => record.valid === false).length,
    solverAttempts,
    solved,
    solveRate: solverAttempts === 0 ? null : solved / solverAttempts,
  };
}

/** The bugs anchor episodes solved: real bugs copied in, left out of the run's own bug quality. */
export function anchorBugIds(records: readonly EpisodeRecord[]): Set<string> {
  return new Set(records.flatMap((record) => (record.anchor === true && record.bugId !== null ? [record.bugId] : [])));
}
