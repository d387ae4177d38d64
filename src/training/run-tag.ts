import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { runPaths } from '../corpus/run-layout.js';
import { EngineError, errorMessage } from '../util/engine-error.js';

/**
 * A short tag that names this run dir and no other: a hash of its absolute path and the time its
 * run.json was created. It goes into the names of the adapters the run has a sampler load, so a
 * sampler that outlives a run (or a trainer) never serves an earlier run's adapter under the name
 * of this run's version; a resume of the same run keeps the tag.
 *
 * @throws EngineError `config-invalid` when run.json cannot be read.
 */
export async function runTag(runDir: string): Promise<string> {
  const path = runPaths(runDir).runConfig;
  let createdAt: unknown;
  try {
    createdAt = (JSON.parse(await readFile(path, 'utf8')) as { createdAt?: unknown }).createdAt;
  } catch (error) {
    throw new EngineError('config-invalid', `cannot read ${path}: ${errorMessage(error)}`);
  }
  return createHash('sha256').update(`${resolve(runDir)}\n${String(createdAt)}`).digest('hex').slice(0, 10);
}
