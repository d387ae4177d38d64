import { resolve } from 'node:path';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { readCorpus } from '../corpus/read-corpus.js';
import type { StoredBug } from '../corpus/read-stored-bug.js';
import { EngineError } from '../util/engine-error.js';

/**
 * Solve-only mode: the valid bugs of an earlier run dir, per repo of this run (same id and
 * original commit), sorted by id so every run picks them in the same order.
 * @throws EngineError `usage` when the corpus is this run's own dir or holds no bug for any repo.
 */
export async function loadCorpusBugs(dir: string, out: string, repos: readonly ResolvedRepo[]): Promise<Map<string, StoredBug[]>> {
  if (resolve(dir) === resolve(out)) throw new EngineError('usage', `--corpus ${dir}: the corpus must be an earlier run dir, not this run's --out`);
  const { valid } = await readCorpus(dir);
  const byRepo = new Map<string, StoredBug[]>();
  for (const repo of repos) {
    byRepo.set(repo.id, valid.filter((bug) => bug.metadata.repo === repo.id && bug.metadata.commit === repo.commit));
  }
  if ([...byRepo.values()].every((bugs) => bugs.length === 0)) {
    const ids = repos.map((repo) => `${repo.id}@${repo.commit.slice(0, 12)}`).join(', ');
    throw new EngineError('usage', `--corpus ${dir}: no valid bug of ${ids} (${valid.length} valid bug(s) of other repos or commits)`);
  }
  return byRepo;
}
