import type { LoadedRepos } from '../config/load-repos.js';
import { resolveRepo, type ResolvedRepo } from '../config/resolve-repo.js';
import { EngineError } from '../util/engine-error.js';

/** Find a repo by the id a bug or instance names; `where` is the file that names it, for the error. */
export type RepoLookup = (id: string, where: string) => Promise<ResolvedRepo>;

/**
 * Repos by id: an entry of repos.yaml, else one of the local repositories given by path (their
 * ids are derived from the path as `--repo <path>` derives them), as `ssr export` finds them.
 * @throws EngineError `usage` naming the id, the file and the two fixes.
 */
export function repoLookup(repos: LoadedRepos | undefined, paths: readonly string[]): RepoLookup {
  const byPath = new Map<string, Promise<ResolvedRepo>>();
  return async (id, where) => {
    if (repos?.file.repos.some((entry) => entry.id === id)) return resolveRepo(id, repos);
    for (const path of paths) {
      if (!byPath.has(path)) byPath.set(path, resolveRepo(path, undefined));
      const repo = await byPath.get(path)!;
      if (repo.id === id) return repo;
    }
    throw new EngineError('usage', `${where} names repo ${id}, which is neither an entry of ${repos?.path ?? 'repos.yaml (none loaded)'} nor a --repo <path> given: add --repos <file> or --repo <path>`);
  };
}
