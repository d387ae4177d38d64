import { stat } from 'node:fs/promises';
import { EngineError } from '../util/engine-error.js';
import type { EvalInstance } from './eval-instance.js';
import { loadCorpusSet } from './load-corpus-set.js';
import { loadJsonlSet } from './load-jsonl-set.js';
import type { RepoLookup } from './repo-lookup.js';

/**
 * The instances of a set as a flag names it: a dir with `bugs/` (its valid bugs, by their stored
 * validation) or a SWE-bench-format JSONL (its lines). What `--set`, `--eval-set` and
 * `--anchor-set` share; each caller checks the instances for its own use.
 * @throws EngineError `usage` `<flag> <set>: no such file or directory<hint>`, or the loader's error for a malformed set.
 */
export async function readSetInstances(path: string, lookup: RepoLookup, named: { flag: string; set: string; hint?: string }): Promise<EvalInstance[]> {
  const isDir = (await stat(path).catch(() => null))?.isDirectory();
  if (isDir === undefined) throw new EngineError('usage', `${named.flag} ${named.set}: no such file or directory${named.hint ? ` (${named.hint})` : ''}`);
  return isDir ? (await loadCorpusSet(path, lookup)).instances : loadJsonlSet(path, lookup);
}
