import { join } from 'node:path';
import type { EpisodeRecord } from '../corpus/episode-record.js';
import { withPathLock } from '../corpus/path-lock.js';
import { readJsonFile } from '../corpus/read-json-file.js';
import { RUN_LAYOUT } from '../corpus/run-layout.js';
import type { RunStore } from '../corpus/run-store.js';
import { solvesRecordSchema, type SolveAttempt, type SolvesRecord } from '../corpus/solves-record.js';

/**
 * Add attempts to a stored bug's solves.json: an attempt id already there is replaced (a retried
 * episode re-runs its attempts under the same ids), others are kept, so a bug solved by several
 * episodes (a duplicate buggy tree, a corpus bug used again) keeps every attempt. Serialised per
 * bug, since two episodes of one step may share a bug.
 */
export async function mergeSolves(store: RunStore, bugId: string, attempts: readonly SolveAttempt[]): Promise<SolvesRecord> {
  const path = join(store.paths.bugDir(bugId), RUN_LAYOUT.solves);
  return withPathLock(path, async () => {
    const existing = (await readJsonFile(path, solvesRecordSchema, { optional: true }))?.attempts ?? [];
    const fresh = new Set(attempts.map((attempt) => attempt.id));
    return store.writeSolves(bugId, [...existing.filter((attempt) => !fresh.has(attempt.id)), ...attempts]);
  });
}

/**
 * Make an episode durable: its attempts into the bug's solves.json, then its episodes.jsonl line,
 * which marks it done (a crash in between re-runs the episode, whose attempts then replace their
 * namesakes). A discarded episode leaves solves.json alone: its attempts are retried with it.
 */
export async function persistEpisode(store: RunStore, record: EpisodeRecord, attempts: readonly SolveAttempt[]): Promise<void> {
  if (record.status === 'completed' && record.bugId !== null && attempts.length > 0) await mergeSolves(store, record.bugId, attempts);
  await store.recordEpisode(record);
}
