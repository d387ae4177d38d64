import { execFileSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One build a bench alternates: a label for the table and the checkout whose src/ runs (through tsx: no build step to go stale). */
export interface BenchBuild {
  label: string;
  dir: string;
}

/**
 * Each git rev checked out into its own worktree under `root`, sharing this checkout's
 * node_modules; without revs, this checkout alone. {@link removeBuilds} takes them off again.
 */
export function prepareBuilds(revs: readonly string[] | undefined, root: string): BenchBuild[] {
  if (!revs) return [{ label: 'working tree', dir: ROOT }];
  return revs.map((rev, index) => {
    const sha = execFileSync('git', ['-C', ROOT, 'rev-parse', '--verify', `${rev}^{commit}`], { encoding: 'utf8' }).trim();
    const dir = join(root, 'builds', `${index}-${sha.slice(0, 10)}`);
    if (!existsSync(dir)) {
      execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', dir, sha], { stdio: 'ignore' });
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    }
    return { label: `${rev}@${sha.slice(0, 7)}`, dir };
  });
}

/** The worktrees are registered in this repository: take them off its list again. */
export function removeBuilds(builds: readonly BenchBuild[]): void {
  for (const build of builds) if (build.dir !== ROOT) execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', build.dir], { stdio: 'ignore' });
}

/** `--builds before,after` as two revs; undefined without the flag. */
export function parseBuildRevs(flag: string | undefined): string[] | undefined {
  const revs = flag?.split(',').map((rev) => rev.trim()).filter(Boolean);
  if (revs && revs.length !== 2) throw new Error(`--builds: give two git revs, before and after (got ${JSON.stringify(flag)})`);
  return revs;
}
