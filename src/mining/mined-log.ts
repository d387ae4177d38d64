import { join } from 'node:path';
import { z } from 'zod';
import { appendJsonl, readJsonl } from '../corpus/jsonl-file.js';
import { skipReasonSchema } from './skip-reasons.js';

/**
 * `<out>/mined.jsonl`: one line per commit judged, mined or skipped, so a rerun skips it. A commit
 * whose judging failed for infrastructure is not written: a rerun tries it again.
 */
export const minedRecordSchema = z.object({
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  verdict: z.enum(['mined', 'skipped']),
  reason: skipReasonSchema.nullable().describe('why it was skipped; null when mined'),
  detail: z.string(),
  bugId: z.string().nullable().describe('the bug dir under bugs/ when mined'),
  subject: z.string(),
  durationMs: z.number().nonnegative(),
});
export type MinedRecord = z.infer<typeof minedRecordSchema>;

export const MINED_LOG = 'mined.jsonl';

export function minedLogPath(out: string): string {
  return join(out, MINED_LOG);
}

/** The commits already judged in `out`, by sha (the last line of a sha wins). */
export async function readMinedLog(out: string): Promise<Map<string, MinedRecord>> {
  const { records } = await readJsonl(minedLogPath(out), minedRecordSchema);
  return new Map(records.map((record) => [record.commit, record]));
}

export function appendMinedRecord(out: string, record: MinedRecord): Promise<void> {
  return appendMinedRecords(out, [record]);
}

/** Several verdicts in one append (nothing is written for none). */
export async function appendMinedRecords(out: string, records: readonly MinedRecord[]): Promise<void> {
  if (records.length > 0) await appendJsonl(minedLogPath(out), [...records]);
}
