import { stat } from 'node:fs/promises';
import { readTrajectory, type Trajectory } from '../agent/trajectory.js';
import type { StoredBug } from './read-stored-bug.js';
import { runPaths } from './run-layout.js';
import type { SolveAttempt } from './solves-record.js';

/** A scored Solver attempt on a valid bug, with its trajectory. */
export interface SolverAttempt {
  bug: StoredBug;
  attempt: SolveAttempt;
  trajectory: Trajectory;
}

/**
 * The scored attempts (solved or failed; discarded ones hit the infrastructure) of `bugs`, in
 * solves.json order, with their trajectories (`trajectories/<attempt id>.jsonl`).
 * @returns also the ids of scored attempts whose trajectory file is missing (left out).
 * @throws EngineError `artifact-invalid-input` for a trajectory file that is there but malformed.
 */
export async function readSolverAttempts(corpus: string, bugs: readonly StoredBug[]): Promise<{ attempts: SolverAttempt[]; missing: string[] }> {
  const paths = runPaths(corpus);
  const attempts: SolverAttempt[] = [];
  const missing: string[] = [];
  for (const bug of bugs) {
    for (const attempt of bug.solves?.attempts ?? []) {
      if (attempt.status === 'discarded') continue;
      const path = paths.trajectory(attempt.id);
      if (!(await stat(path).catch(() => null))) {
        missing.push(attempt.id);
        continue;
      }
      attempts.push({ bug, attempt, trajectory: await readTrajectory(path) });
    }
  }
  return { attempts, missing };
}
