import { mkdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { diskError, writeFileAtomic } from './atomic-write.js';
import { buildInstanceCommits } from './build-instance-commits.js';
import type { ExportRepoSource } from './export-repo-sources.js';
import { sweBenchInstanceId, toSweBenchInstance, type ProblemStatementSource } from './export-swe-bench.js';
import type { StoredBug } from './read-stored-bug.js';
import { RUN_LAYOUT } from './run-layout.js';

/** `out` without `.jsonl`, plus `.repos`: the folder of git bundles that ships with the JSONL. */
export function bundlesDir(out: string): string {
  return join(dirname(out), `${basename(out).replace(/\.jsonl$/, '')}.repos`);
}

/**
 * Write the runnable SWE-bench export: per repo `<bundlesDir>/<repo id>.bundle` (the instance
 * commits) and `<repo id>.env.bundle` (the original commits, for environments), then `out`, one
 * instance per line. The JSONL is written last, so it never names a commit that is not in a bundle.
 * @returns the bundle paths written.
 */
export async function writeSweBenchExport(bugs: readonly StoredBug[], sources: ReadonlyMap<string, ExportRepoSource>, out: string, statement: ProblemStatementSource = 'solver'): Promise<string[]> {
  const dir = bundlesDir(out);
  await mkdir(dir, { recursive: true }).catch((error: unknown) => {
    throw diskError(error, `cannot create ${dir}`);
  });
  const lines = new Map<string, string>();
  const written: string[] = [];
  const byRepo = new Map<string, StoredBug[]>();
  for (const bug of bugs) byRepo.set(bug.metadata.repo, [...(byRepo.get(bug.metadata.repo) ?? []), bug]);
  for (const [repoId, repoBugs] of byRepo) {
    const source = sources.get(repoId)!;
    const paths = { bundle: join(dir, `${repoId}.bundle`), envBundle: join(dir, `${repoId}.env.bundle`) };
    const built = await buildInstanceCommits(source.location, repoBugs.map((bug) => ({ bug, instanceId: sweBenchInstanceId(bug) })), paths);
    written.push(paths.bundle, paths.envBundle);
    for (const bug of repoBugs) {
      const stored = await stat(join(bug.dir, RUN_LAYOUT.validation));
      const instance = toSweBenchInstance(bug, {
        repo: source.repo,
        baseCommit: built.commits.get(bug.id)!,
        createdAt: stored.mtime.toISOString(),
        bundle: relative(dirname(out), paths.bundle),
        environmentBundle: relative(dirname(out), paths.envBundle),
        image: source.image,
        testTimeoutS: source.testTimeoutS,
      }, statement);
      lines.set(bug.id, `${JSON.stringify(instance)}\n`);
    }
  }
  await writeFileAtomic(out, bugs.map((bug) => lines.get(bug.id)!).join(''));
  return written;
}
