import { EngineError } from '../util/engine-error.js';
import type { TrainingSample } from './training-sample.js';

/**
 * `--max-staleness` K, the one default of the setting (CLI, settings schema, `dropStale`). K is both
 * the train calls that may be pending behind the sampling and the oldest lag kept, so 1 already
 * overlaps sampling with training; method §9 drops only what is more than
 * {@link METHOD_MAX_STALENESS} versions old, the ceiling a run may raise K to, not a default: every
 * version of pipelining depth is memory held and samples further off-policy.
 */
export const DEFAULT_MAX_STALENESS = 1;

/** method §9: a trajectory from a policy more than 8 versions older than the one being trained is dropped. */
export const METHOD_MAX_STALENESS = 8;

export interface StalenessResult<T> {
  kept: T[];
  /** Dropped samples, counted by role. */
  dropped: Record<TrainingSample['role'], number>;
  /** Every sample (kept or dropped) counted by its lag, `currentVersion − policyVersion`: the staleness histogram. */
  lags: Record<number, number>;
}

/**
 * Keep the samples whose `policyVersion` is at most `maxStaleness` versions behind
 * `currentVersion` (a lag of exactly `maxStaleness` is kept). Large batches, small staleness:
 * off-policy samples beyond that bias the update more than they add.
 *
 * @throws EngineError `internal` for a sample newer than the trainer (weights that do not exist
 *   yet: the run dir and the trainer disagree); `usage` for a negative or fractional `maxStaleness`.
 */
export function dropStale<T extends Pick<TrainingSample, 'id' | 'role' | 'policyVersion'>>(
  samples: readonly T[],
  currentVersion: number,
  maxStaleness = DEFAULT_MAX_STALENESS,
): StalenessResult<T> {
  if (!Number.isInteger(maxStaleness) || maxStaleness < 0) throw new EngineError('usage', `max staleness must be a non-negative integer, got ${maxStaleness}`);
  const result: StalenessResult<T> = { kept: [], dropped: { injector: 0, solver: 0 }, lags: {} };
  for (const sample of samples) {
    const lag = currentVersion - sample.policyVersion;
    if (lag < 0) {
      throw new EngineError('internal', `sample ${sample.id} comes from policy version ${sample.policyVersion}, newer than the trainer's ${currentVersion}`);
    }
    result.lags[lag] = (result.lags[lag] ?? 0) + 1;
    if (lag > maxStaleness) result.dropped[sample.role] += 1;
    else result.kept.push(sample);
  }
  return result;
}

/**
 * After a resume from a checkpoint at `version`, the episodes recorded before it (`pending`) may
 * have been sampled by weights newer than the checkpoint, which were lost with the trainer: their
 * samples from such weights are dropped (and counted) rather than labelled with a version the new
 * history will reuse. A sample's version is its oldest turn's, so one that started before the
 * lost weights existed is kept: its behaviour log-probs are still those that sampled it.
 */
export function dropLost<T extends Pick<TrainingSample, 'episodeId' | 'policyVersion'>>(
  samples: readonly T[],
  resume: { version: number; pending: readonly string[] } | null,
): { kept: T[]; lost: number } {
  if (resume === null) return { kept: [...samples], lost: 0 };
  const pending = new Set(resume.pending);
  const kept = samples.filter((sample) => !(pending.has(sample.episodeId) && sample.policyVersion > resume.version));
  return { kept, lost: samples.length - kept.length };
}
