import { stat } from 'node:fs/promises';
import { EngineError } from '../util/engine-error.js';
import { listBugDirs, readStoredBug, type StoredBug } from './read-stored-bug.js';
import { runPaths } from './run-layout.js';

export interface CorpusContent {
  /** Valid bugs, sorted by id. */
  valid: StoredBug[];
  /** Bug dirs whose validation rejected the artifact (or could not judge it). */
  invalid: number;
  /** Bug dirs without validation.json (not written by the run store: left out). */
  incomplete: string[];
}

/**
 * Read the bugs of a run dir (`ssr selfplay` / `ssr corpus --out`).
 * @throws EngineError `usage` when `dir` has no `bugs/` folder; `artifact-invalid-input` naming the
 *   file of a malformed bug dir.
 */
export async function readCorpus(dir: string): Promise<CorpusContent> {
  const { bugs } = runPaths(dir);
  if (!(await stat(bugs).catch(() => null))?.isDirectory()) {
    throw new EngineError('usage', `${dir} is not a run dir: it has no bugs/ folder (give the --out directory of ssr selfplay or ssr corpus)`);
  }
  const content: CorpusContent = { valid: [], invalid: 0, incomplete: [] };
  for (const id of await listBugDirs(bugs)) {
    const bug = await readStoredBug(runPaths(dir).bugDir(id));
    if (bug === null) content.incomplete.push(id);
    else if (bug.validation.valid) content.valid.push(bug);
    else content.invalid += 1;
  }
  return content;
}
