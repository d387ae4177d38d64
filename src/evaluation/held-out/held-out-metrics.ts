import { z } from 'zod';

const count = z.number().int().nonnegative();
const rate = z.number().min(0).max(1).nullable();

/**
 * A step's held-out evaluation (`ssr selfplay --eval-set`), on its metrics.jsonl line: the policy
 * after the step's train call, solving the held-out set, graded as `ssr eval` grades. None of its
 * attempts is a sample. Absent on a step that was not evaluated.
 */
export const heldOutMetricsSchema = z.object({
  set: z.string().describe('the held-out set (absolute path)'),
  policyVersion: count.describe('the policy version that was evaluated (after the step was trained)'),
  instances: count,
  invalid: count.describe('instances whose validation rejected them (left out of the rates)'),
  notJudged: count.describe('instances infrastructure kept from being judged'),
  attempts: count.describe('scored attempts (discarded ones are not)'),
  solved: count,
  solveRate: rate.describe('solved / scored attempts; null with none'),
  passAt1: rate,
  overlaps: count.describe('(training bug, held-out instance) pairs of the same repo, commit and changed lines, over the run so far'),
  dir: z.string().describe('the evaluation dir, relative to the run dir (eval/step-<N>)'),
  retried: count.optional().describe('instances tried a second time because infrastructure failed them or an attempt (absent from runs before it was recorded)'),
  discarded: count.optional().describe('attempts discarded for infrastructure after that retry: not scored, left out of the rates'),
});
export type HeldOutMetrics = z.infer<typeof heldOutMetricsSchema>;

/**
 * The starting policy's evaluation (`--eval-every`, step 0), relative to the run dir: no metrics
 * line carries it, so its HeldOutMetrics object is this file, written once it is done.
 */
export const HELD_OUT_AT_START = 'eval/step-0/held-out.json';
