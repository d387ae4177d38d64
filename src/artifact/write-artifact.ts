import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { EngineError } from '../util/engine-error.js';
import { ARTIFACT_FILES, bugArtifactSchema, type BugArtifact } from './bug-artifact.js';
import { formatTestFilesList } from './test-files-list.js';

export interface WriteArtifactOptions {
  /** What to do when `dir` exists: fail (default), or replace it whole. */
  ifExists?: 'error' | 'replace';
}

/**
 * Write an artifact directory: the five files of method §2 (test_script.sh executable) plus
 * metadata.json when present. Atomic: the files go to a sibling temp directory that is renamed
 * into place, so a reader never sees half an artifact and a crash leaves no `dir` behind.
 *
 * @throws EngineError `usage` when `dir` exists and `ifExists` is not `replace`.
 */
export async function writeArtifactDir(dir: string, artifact: BugArtifact, options: WriteArtifactOptions = {}): Promise<void> {
  const valid = bugArtifactSchema.parse(artifact);
  const exists = (await stat(dir).catch(() => null)) !== null;
  if (exists && options.ifExists !== 'replace') throw new EngineError('usage', `artifact directory ${dir} already exists`);

  const parent = dirname(dir);
  await mkdir(parent, { recursive: true });
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temp = join(parent, `.${basename(dir)}.tmp-${suffix}`);
  try {
    await mkdir(temp);
    await writeFile(join(temp, ARTIFACT_FILES.bugInject), valid.bugInject);
    await writeFile(join(temp, ARTIFACT_FILES.testWeaken), valid.testWeaken);
    await writeFile(join(temp, ARTIFACT_FILES.testFiles), formatTestFilesList(valid.testFiles));
    await writeFile(join(temp, ARTIFACT_FILES.testScript), valid.testScript, { mode: 0o755 });
    await writeFile(join(temp, ARTIFACT_FILES.testParser), valid.testParser);
    if (valid.metadata !== undefined) await writeFile(join(temp, ARTIFACT_FILES.metadata), `${JSON.stringify(valid.metadata, null, 2)}\n`);
    if (exists) {
      // rename() cannot replace a non-empty directory: move the old one aside first.
      const old = join(parent, `.${basename(dir)}.old-${suffix}`);
      await rename(dir, old);
      await rename(temp, dir);
      await rm(old, { recursive: true, force: true });
    } else await rename(temp, dir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    // Another writer got there between our stat() and rename().
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new EngineError('usage', `artifact directory ${dir} already exists`, { cause: error });
    throw error;
  }
}
