import type { ImageRecipe } from '../config/repos-schema.js';
import type { LoadedRepos } from '../config/load-repos.js';
import { resolveRepo } from '../config/resolve-repo.js';
import { EngineError } from '../util/engine-error.js';

/** What the SWE-bench export needs of a repo beyond its bug dirs. */
export interface ExportRepoSource {
  id: string;
  /** Where git clones it from (its original commits must be there). */
  location: string;
  /** owner/name. */
  repo: string;
  image: ImageRecipe;
  testTimeoutS: number;
}

/**
 * The sources of `ids` (the repo ids of the exported bugs): each from repos.yaml, or from a local
 * path given on the command line (whose id is derived from the path, as `--repo <path>` does).
 * @throws EngineError `repo-not-found` naming each id found in neither, and how to give it.
 */
export async function exportRepoSources(ids: readonly string[], repos: LoadedRepos | undefined, paths: readonly string[]): Promise<Map<string, ExportRepoSource>> {
  const sources = new Map<string, ExportRepoSource>();
  for (const path of paths) {
    const resolved = await resolveRepo(path, undefined);
    sources.set(resolved.id, { id: resolved.id, location: resolved.location, repo: `ssr-local/${resolved.id}`, image: resolved.image, testTimeoutS: resolved.limits.test_timeout_s });
  }
  const missing: string[] = [];
  for (const id of ids) {
    if (sources.has(id)) continue;
    const entry = repos?.file.repos.find((candidate) => candidate.id === id);
    if (!entry) {
      missing.push(id);
      continue;
    }
    const resolved = await resolveRepo(id, repos);
    sources.set(id, { id, location: resolved.location, repo: entry.repo ?? `ssr-local/${id}`, image: resolved.image, testTimeoutS: resolved.limits.test_timeout_s });
  }
  if (missing.length > 0) {
    const where = repos ? `not in ${repos.path}` : 'no repos.yaml loaded';
    throw new EngineError('repo-not-found', `the bugs' repo(s) ${missing.join(', ')}: ${where} and no --repo <path> has that id; give --repos <file> or --repo <path> so the export can commit the instances`);
  }
  return sources;
}
