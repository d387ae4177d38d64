import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { parseReposYaml } from '../config/load-repos.js';
import { reposFileSchema, type RepoEntry } from '../config/repos-schema.js';
import type { CatalogueEntry } from './catalogue-entry-schema.js';
import type { Materialised } from './materialise-entry.js';

/** The repos.yaml entry of a materialised catalogue entry: its local repo pinned at its commit. */
export function catalogueRepoEntry(entry: CatalogueEntry, built: Materialised): Record<string, unknown> {
  return {
    id: entry.id,
    ...(entry.source.type === 'git' ? { repo: entry.source.repo } : {}),
    source: { path: built.path, commit: built.commit },
    image: entry.image,
    thresholds: entry.thresholds,
    limits: entry.limits,
    ...(entry.test.runner === 'pytest' ? {} : { test: entry.test }),
  };
}

/**
 * Add (or replace, by id) entries in the repos file at `file`, keeping the others; entries are
 * sorted by id so that re-running gives the same file. Validated against repos.yaml's schema.
 */
export async function writeCatalogueRepos(file: string, entries: Array<Record<string, unknown>>): Promise<void> {
  const kept: RepoEntry[] = existsSync(file) ? parseReposYaml(readFileSync(file, 'utf8'), file).repos : [];
  const byId = new Map<string, unknown>(kept.map((repo) => [repo.id, repo]));
  for (const entry of entries) byId.set(entry.id as string, entry);
  const repos = [...byId.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, repo]) => repo);
  reposFileSchema.parse({ repos });
  await writeFile(file, `# Written by scripts/catalogue-fetch: the materialised catalogue entries (catalogue/*.yaml).\n${stringify({ repos })}`);
}
