import type { EpisodeRecord } from '../corpus/episode-record.js';
import type { HeldOutMetrics } from '../evaluation/held-out/held-out-metrics.js';
import type { BugQuality } from '../validator/bug-quality.js';
import { qualityDistribution, type QualityDistribution } from '../corpus/quality-distribution.js';
import { countEpisodes } from './episode-counts.js';

/** `ssr selfplay --json` / `ssr corpus --json`: exactly these keys, over the whole run dir. */
export interface SelfplayJsonSummary {
  /** Steps finished (metrics lines). */
  steps: number;
  episodes: number;
  valid: number;
  invalidByCheck: Record<string, number>;
  solverAttempts: number;
  solved: number;
  higherOrder: number;
  rewards: { injector: number[]; solver: number[] };
  /** The valid bugs by breadth, kind and weakening granularity (issue 14). */
  bugQuality: QualityDistribution;
  outDir: string;
  /**
   * With `--eval-set`: the held-out curve, one point per evaluated step in step order (the
   * metrics lines' `heldOut`). Absent when the run evaluated nothing, so the keys above stay exact.
   */
  heldOut?: HeldOutPoint[];
}

/** One evaluated step of the held-out curve. */
export type HeldOutPoint = { step: number } & Pick<HeldOutMetrics, 'policyVersion' | 'instances' | 'attempts' | 'solved' | 'solveRate' | 'passAt1' | 'overlaps' | 'dir'>;

/** The held-out curve of a run's metrics lines (those of steps that were evaluated). */
export function heldOutCurve(metrics: readonly { step: number; heldOut?: HeldOutMetrics | undefined }[]): HeldOutPoint[] {
  return metrics.flatMap(({ step, heldOut }) => {
    if (heldOut === undefined) return [];
    const { policyVersion, instances, attempts, solved, solveRate, passAt1, overlaps, dir } = heldOut;
    return [{ step, policyVersion, instances, attempts, solved, solveRate, passAt1, overlaps, dir }];
  });
}

/** The summary of a run dir's episodes (latest record of each) and finished steps. */
export function jsonSummary(
  records: readonly EpisodeRecord[],
  steps: number,
  outDir: string,
  qualities: readonly BugQuality[] = [],
  heldOut: readonly HeldOutPoint[] = [],
): SelfplayJsonSummary {
  const counts = countEpisodes(records);
  return {
    steps,
    episodes: counts.episodes,
    valid: counts.valid,
    invalidByCheck: counts.invalidByCheck,
    solverAttempts: counts.solverAttempts,
    solved: counts.solved,
    higherOrder: counts.higherOrder,
    rewards: counts.rewards,
    bugQuality: qualityDistribution(qualities),
    outDir,
    ...(heldOut.length > 0 ? { heldOut: [...heldOut] } : {}),
  };
}
