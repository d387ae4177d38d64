import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ARTIFACT_FILES } from '../artifact/bug-artifact.js';
import { bugMetadataSchema } from '../corpus/bug-metadata.js';
import type { EpisodeRecord } from '../corpus/episode-record.js';
import { readJsonFile } from '../corpus/read-json-file.js';
import { listBugDirs } from '../corpus/read-stored-bug.js';
import { RUN_LAYOUT, type RunPaths } from '../corpus/run-layout.js';
import { solvesRecordSchema } from '../corpus/solves-record.js';
import { storedValidationSchema } from '../corpus/stored-validation.js';
import { EngineError, errorMessage } from '../util/engine-error.js';
import { diffShape } from '../selfplay/bug-shape.js';

/** One row of the report's bug table. */
export interface BugRow {
  id: string;
  /** The bug dir relative to the run dir (`bugs/<id>`), for links. */
  relDir: string;
  strategy: string;
  /**
   * Operators recorded in metadata.json (names, or the procedural Injector's `{operator}` records);
   * else the diff's shape kinds, as the step metrics count them (`replace-lines`, `delete-file`, …).
   */
  operators: string[];
  order: 1 | 2;
  parentBugId: string | null;
  /** Step of the episode that made it; null when no episode names it. */
  step: number | null;
  /** Files and changed lines of bug_inject.diff; null when the diff does not parse. */
  files: number | null;
  lines: number | null;
  valid: boolean;
  failedCheck: string | null;
  /** Solves / scored attempts; null before any attempt was scored. */
  solveRate: number | null;
  solves: number;
  scored: number;
  bugInject: string;
  testWeaken: string;
}

// metadata.json may carry more than the run store's fields (the procedural Injector's operator records).
const metadataSchema = bugMetadataSchema.loose();
const operatorSchema = z.union([z.string(), z.looseObject({ operator: z.string() }).transform((record) => record.operator)]);

interface Ranked {
  id: string;
  step: number | null;
  /** Later is newer: the episode's position, or the dir's mtime for bugs no episode names. */
  order: number;
}

/**
 * The finished bug dirs of a run (those with validation.json), newest first: bugs named by
 * episodes by step then record order, then the others by modification time. Only the first
 * `limit` are read whole.
 *
 * @throws EngineError `artifact-invalid-input` naming the file of a corrupt bug dir.
 */
export async function readBugRows(paths: RunPaths, episodes: readonly EpisodeRecord[], limit: number): Promise<{ rows: BugRow[]; total: number }> {
  const named = new Map<string, { step: number; index: number }>();
  episodes.forEach((episode, index) => {
    if (episode.bugId !== null) named.set(episode.bugId, { step: episode.step, index });
  });
  const ranked: Ranked[] = [];
  for (const id of await listBugDirs(paths.bugs)) {
    const validation = await stat(join(paths.bugDir(id), RUN_LAYOUT.validation)).catch(() => null);
    if (!validation) continue;
    const episode = named.get(id);
    ranked.push(episode ? { id, step: episode.step, order: episode.index } : { id, step: null, order: validation.mtimeMs });
  }
  ranked.sort((a, b) => {
    if ((a.step === null) !== (b.step === null)) return a.step === null ? 1 : -1;
    return (b.step ?? 0) - (a.step ?? 0) || b.order - a.order || a.id.localeCompare(b.id);
  });
  const solvedBy = new Map<string, EpisodeRecord>();
  for (const episode of episodes) if (episode.bugId !== null) solvedBy.set(episode.bugId, episode);
  const rows = await Promise.all(ranked.slice(0, limit).map((bug) => readBugRow(paths, bug, solvedBy.get(bug.id))));
  return { rows, total: ranked.length };
}

async function readBugRow(paths: RunPaths, bug: Ranked, episode: EpisodeRecord | undefined): Promise<BugRow> {
  const dir = paths.bugDir(bug.id);
  // Without `optional` a missing file throws, so these are never null.
  const metadata = (await readJsonFile(join(dir, ARTIFACT_FILES.metadata), metadataSchema))!;
  const validation = (await readJsonFile(join(dir, RUN_LAYOUT.validation), storedValidationSchema))!;
  const solves = await readJsonFile(join(dir, RUN_LAYOUT.solves), solvesRecordSchema, { optional: true });
  const [bugInject, testWeaken] = await Promise.all([readText(join(dir, ARTIFACT_FILES.bugInject)), readText(join(dir, ARTIFACT_FILES.testWeaken))]);
  const shape = diffShape(bugInject);
  const parsed = shape.kinds.includes('unparsable') ? null : shape;
  const recorded = z.array(operatorSchema).safeParse(metadata.operators);
  const operators = recorded.success && recorded.data.length > 0 ? [...new Set(recorded.data)] : (parsed?.kinds ?? []);
  const scored = solves?.scored ?? episode?.solverAttempts ?? 0;
  const solvesCount = solves?.solves ?? episode?.solved ?? 0;
  return {
    id: bug.id,
    relDir: `${RUN_LAYOUT.bugs}/${bug.id}`,
    strategy: metadata.strategy,
    operators,
    order: metadata.order,
    parentBugId: metadata.parentBugId,
    step: bug.step,
    files: parsed?.files ?? null,
    lines: parsed?.lines ?? null,
    valid: validation.valid,
    failedCheck: validation.failedCheck,
    solveRate: solves?.solveRate ?? (scored > 0 ? solvesCount / scored : null),
    solves: solvesCount,
    scored,
    bugInject,
    testWeaken,
  };
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new EngineError('artifact-invalid-input', `cannot read ${path}: ${errorMessage(error)}`);
  }
}
