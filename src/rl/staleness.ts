import { EngineError } from '../util/engine-error.js';
import type { TrainingSample } from './training-sample.js';

/** SPEC §9: drop trajectories from a policy more than 8 versions older than the one being trained. */
export const DEFAULT_MAX_STALENESS = 8;

export interface StalenessResult<T> {
  kept: T[];
  /** Dropped samples, counted by role. */
  dropped: Record<TrainingSample['role'], number>;
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
  const result: StalenessResult<T> = { kept: [], dropped: { injector: 0, solver: 0 } };
  for (const sample of samples) {
    const lag = currentVersion - sample.policyVersion;
    if (lag < 0) {
      throw new EngineError('internal', `sample ${sample.id} comes from policy version ${sample.policyVersion}, newer than the trainer's ${currentVersion}`);
    }
    if (lag > maxStaleness) result.dropped[sample.role] += 1;
    else result.kept.push(sample);
  }
  return result;
}
