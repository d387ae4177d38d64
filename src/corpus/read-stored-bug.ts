import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { loadArtifactDir } from '../artifact/load-artifact.js';
import { EngineError } from '../util/engine-error.js';
import { bugMetadataSchema, type BugMetadata } from './bug-metadata.js';
import { readJsonFile } from './read-json-file.js';
import { RUN_LAYOUT } from './run-layout.js';
import { solvesRecordSchema, type SolvesRecord } from './solves-record.js';
import { storedValidationSchema, type StoredValidation } from './stored-validation.js';

/** A bug dir of a run dir, read back. */
export interface StoredBug {
  id: string;
  dir: string;
  artifact: BugArtifact;
  metadata: BugMetadata;
  validation: StoredValidation;
  /** Null until the bug's attempts are recorded. */
  solves: SolvesRecord | null;
}

/**
 * Read one bug dir (five files, metadata.json, validation.json, solves.json if present).
 * @returns null when it has no validation.json yet (not a finished bug).
 * @throws EngineError `artifact-invalid-input` naming the file that is missing or malformed.
 */
export async function readStoredBug(dir: string): Promise<StoredBug | null> {
  const validation = await readJsonFile(join(dir, RUN_LAYOUT.validation), storedValidationSchema, { optional: true });
  if (validation === null) return null;
  const artifact = await loadArtifactDir(dir);
  const metadataPath = join(dir, 'metadata.json');
  const parsed = bugMetadataSchema.safeParse(artifact.metadata ?? null);
  if (!parsed.success) throw new EngineError('artifact-invalid-input', `${metadataPath}: ${artifact.metadata ? parsed.error.message : 'missing'}`);
  const solves = await readJsonFile(join(dir, RUN_LAYOUT.solves), solvesRecordSchema, { optional: true });
  return { id: basename(dir), dir, artifact, metadata: parsed.data, validation, solves };
}

/** Bug dir names of a run dir, sorted; in-progress (dot) entries are skipped. */
export async function listBugDirs(bugsDir: string): Promise<string[]> {
  const entries = await readdir(bugsDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw new EngineError('artifact-invalid-input', `cannot list ${bugsDir}: ${error.message}`);
  });
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}
