import { z } from 'zod';

/** One Solver attempt on a stored bug. `discarded` attempts hit the infrastructure and are not scored. */
export const solveAttemptSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['solved', 'failed', 'discarded']),
  reward: z.number().nullable().describe('+1 / −1; null when discarded'),
  exitStatus: z.string().nullable().describe('the agent exit status'),
  reason: z.string().nullable(),
});
export type SolveAttempt = z.infer<typeof solveAttemptSchema>;

/** `solves.json` of a bug: its attempts and the solve rate over the scored ones. */
export const solvesRecordSchema = z.object({
  attempts: z.array(solveAttemptSchema),
  scored: z.number().int().nonnegative(),
  solves: z.number().int().nonnegative(),
  /** solves / scored; null with no scored attempt. */
  solveRate: z.number().min(0).max(1).nullable(),
});
export type SolvesRecord = z.infer<typeof solvesRecordSchema>;

/** The record of a list of attempts, counts derived (so they can never disagree with the list). */
export function summariseSolves(attempts: SolveAttempt[]): SolvesRecord {
  const scored = attempts.filter((attempt) => attempt.status !== 'discarded').length;
  const solves = attempts.filter((attempt) => attempt.status === 'solved').length;
  return { attempts, scored, solves, solveRate: scored === 0 ? null : solves / scored };
}
