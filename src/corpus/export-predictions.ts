import { sweBenchInstanceId } from './export-swe-bench.js';
import type { SolverAttempt } from './read-solver-attempts.js';

/**
 * One line of a SWE-bench predictions file: a Solver attempt's final patch, against the
 * instance's `base_commit` (the Solver's view). `attempt_id`, `status`, `reward` and
 * `policy_version` are ssr's: how the attempt was graded.
 */
export interface SweBenchPrediction {
  instance_id: string;
  /** The policy name of the trajectory header (the model, or `procedural`). */
  model_name_or_path: string;
  /** The submitted diff; empty when the attempt never submitted. */
  model_patch: string;
  attempt_id: string;
  status: 'solved' | 'failed';
  reward: number | null;
  policy_version: number;
}

/** An attempt's prediction (the last submission is the one graded, method §8). */
export function toPrediction({ bug, attempt, trajectory }: SolverAttempt): SweBenchPrediction {
  const submission = trajectory.exit?.submission;
  return {
    instance_id: sweBenchInstanceId(bug),
    model_name_or_path: trajectory.header.policy.name,
    model_patch: submission?.type === 'solver' ? submission.patch : '',
    attempt_id: attempt.id,
    status: attempt.status === 'solved' ? 'solved' : 'failed',
    reward: attempt.reward,
    policy_version: trajectory.header.policy.version,
  };
}
