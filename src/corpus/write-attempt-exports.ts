import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from './atomic-write.js';
import { toMiniSweAgentTrajectory } from './export-mini-swe-agent.js';
import { toPrediction } from './export-predictions.js';
import type { SolverAttempt } from './read-solver-attempts.js';
import { assertSafeId } from './run-layout.js';

/**
 * Keep the `n`-th (1-based) scored attempt of each bug: SWE-bench's harness keeps one prediction
 * per instance_id, so a file meant for it holds one attempt per bug.
 */
export function nthAttempts(attempts: readonly SolverAttempt[], n: number): SolverAttempt[] {
  const seen = new Map<string, number>();
  return attempts.filter(({ bug }) => {
    const index = (seen.get(bug.id) ?? 0) + 1;
    seen.set(bug.id, index);
    return index === n;
  });
}

/** `out`: one SWE-bench prediction per attempt, JSONL. */
export async function writePredictions(attempts: readonly SolverAttempt[], out: string): Promise<void> {
  await writeFileAtomic(out, attempts.map((attempt) => `${JSON.stringify(toPrediction(attempt))}\n`).join(''));
}

/** `<out>/<instance_id>/<attempt id>.traj.json`: one mini-swe-agent trajectory per attempt. */
export async function writeMiniSweAgentDir(attempts: readonly SolverAttempt[], out: string): Promise<void> {
  for (const attempt of attempts) {
    const trajectory = toMiniSweAgentTrajectory(attempt);
    const file = join(out, assertSafeId(trajectory.info.ssr.instance_id, 'instance'), `${assertSafeId(attempt.attempt.id, 'attempt')}.traj.json`);
    await writeJsonAtomic(file, trajectory);
  }
}
