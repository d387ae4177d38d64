import type { EpisodeRecord } from '../corpus/episode-record.js';
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
}

/** The summary of a run dir's episodes (latest record of each) and finished steps. */
export function jsonSummary(records: readonly EpisodeRecord[], steps: number, outDir: string, qualities: readonly BugQuality[] = []): SelfplayJsonSummary {
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
  };
}
