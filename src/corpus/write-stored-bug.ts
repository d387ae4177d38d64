import { rename, rm, stat } from 'node:fs/promises';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { writeArtifactDir } from '../artifact/write-artifact.js';
import { join } from 'node:path';
import { diskError, tempSibling, writeJsonAtomic } from './atomic-write.js';
import type { BugMetadata } from './bug-metadata.js';
import { RUN_LAYOUT } from './run-layout.js';

/** What `validation.json` must hold at least; the validator's whole result is stored as given. */
export interface ValidationToStore {
  valid: boolean;
  failedCheck?: string | null;
  failToPass?: string[];
  passToPass?: string[];
}

/**
 * Write a bug dir as one unit: the artifact (metadata.json = `metadata`) and validation.json go to
 * a dot-named staging dir that is renamed into place, so a bug dir that exists is complete.
 *
 * @returns false when `dir` already exists (written by an earlier run: left as it is).
 */
export async function writeStoredBug(dir: string, artifact: BugArtifact, metadata: BugMetadata, validation: ValidationToStore): Promise<boolean> {
  if (await stat(dir).catch(() => null)) return false;
  const staging = tempSibling(dir, 'staging');
  try {
    await writeArtifactDir(staging, { ...artifact, metadata });
    await writeJsonAtomic(join(staging, RUN_LAYOUT.validation), validation);
    await rename(staging, dir);
    return true;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    // Written meanwhile by another call: same id, same content (ids are content hashes).
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw diskError(error, `cannot write bug ${dir}`);
  }
}
