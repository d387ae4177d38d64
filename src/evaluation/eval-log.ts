import { join } from 'node:path';
import { z } from 'zod';
import { appendJsonl, readJsonl } from '../corpus/jsonl-file.js';

/**
 * An eval dir: `attempts.jsonl` (one line per graded or discarded attempt), `instances.jsonl`
 * (instances whose validation rejected them), `attempts/<instance>/attempt-<n>/` (trajectory,
 * pred_patch.diff, grade.json), `eval.json` (the tables) and `report.html`.
 */
export const evalAttemptSchema = z.object({
  instanceId: z.string(),
  attempt: z.number().int().positive(),
  reward: z.union([z.literal(1), z.literal(-1)]).nullable().describe('null: discarded (infrastructure), tried again on a rerun'),
  code: z.string().nullable(),
  exitStatus: z.string(),
  turns: z.number().int().nonnegative(),
  reason: z.string(),
});
export type EvalAttempt = z.infer<typeof evalAttemptSchema>;

export const invalidInstanceSchema = z.object({ instanceId: z.string(), failedCheck: z.string(), reason: z.string() });
export type InvalidInstance = z.infer<typeof invalidInstanceSchema>;

export function evalPaths(out: string) {
  return {
    attempts: join(out, 'attempts.jsonl'),
    invalid: join(out, 'instances.jsonl'),
    attemptDir: (instanceId: string) => join(out, 'attempts', instanceId),
    summary: join(out, 'eval.json'),
    report: join(out, 'report.html'),
  };
}

/** Scored attempts by instance and number (a discarded one is not kept: a rerun runs it again). */
export async function readScoredAttempts(out: string): Promise<Map<string, Map<number, EvalAttempt>>> {
  const { records } = await readJsonl(evalPaths(out).attempts, evalAttemptSchema);
  const byInstance = new Map<string, Map<number, EvalAttempt>>();
  for (const record of records) {
    if (record.reward === null) continue;
    const attempts = byInstance.get(record.instanceId) ?? new Map<number, EvalAttempt>();
    attempts.set(record.attempt, record);
    byInstance.set(record.instanceId, attempts);
  }
  return byInstance;
}

export async function readInvalidInstances(out: string): Promise<Map<string, InvalidInstance>> {
  const { records } = await readJsonl(evalPaths(out).invalid, invalidInstanceSchema);
  return new Map(records.map((record) => [record.instanceId, record]));
}

export const appendAttempt = (out: string, attempt: EvalAttempt): Promise<void> => appendJsonl(evalPaths(out).attempts, [attempt]);
export const appendInvalid = (out: string, invalid: InvalidInstance): Promise<void> => appendJsonl(evalPaths(out).invalid, [invalid]);
