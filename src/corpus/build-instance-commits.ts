import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskError, tempSibling } from './atomic-write.js';
import { hostGit } from '../util/host-git.js';
import type { StoredBug } from './read-stored-bug.js';

/** One instance to commit: a valid bug and the branch name its commit gets in the bundle. */
export interface InstanceToCommit {
  bug: StoredBug;
  instanceId: string;
}

/** The bundles of one repo and the commits in them. */
export interface RepoBundles {
  /** Per bug id: the Solver's view (O + bug_inject + test_weaken) as one parentless commit. */
  commits: Map<string, string>;
  /** Branch `<instance_id>` → that commit, for every instance; nothing else (no history, no O). */
  bundle: string;
  /** Branch `ssr-original-<sha12>` → each original commit O, with its history: what environments are built from. */
  envBundle: string;
}

// The Solver's view (method §4, roles/reinit: .git wiped, one fresh commit "Initial commit" by ssr).
// Dates are O's committer date, so the same corpus always exports the same commit ids.
const IDENTITY = { GIT_AUTHOR_NAME: 'ssr', GIT_AUTHOR_EMAIL: 'ssr@localhost', GIT_COMMITTER_NAME: 'ssr', GIT_COMMITTER_EMAIL: 'ssr@localhost' };

/**
 * Build, with real git, one commit per instance: the tree of its original commit O with
 * bug_inject.diff then test_weaken.diff applied (`git apply --cached` on a private index, so no
 * work tree is touched), committed without parents so the commit holds no trace of O, exactly like
 * the Solver's sandbox. The instance commits go to `bundle`; O and its history go to `envBundle`
 * (kept apart: with O beside it, `git diff` would hand an agent the fix).
 * @throws EngineError `repo-not-found` when `location` cannot be cloned or lacks a bug's O;
 *   `artifact-invalid-input` naming the bug dir whose diff does not apply to O.
 */
export async function buildInstanceCommits(location: string, instances: readonly InstanceToCommit[], out: { bundle: string; envBundle: string }): Promise<RepoBundles> {
  const scratch = await mkdtemp(join(tmpdir(), 'ssr-export-git-'));
  try {
    const repo = join(scratch, 'repo.git');
    await hostGit(['clone', '--quiet', '--bare', '--no-hardlinks', '--', location, repo], { cwd: scratch, what: `git clone ${location}`, code: 'repo-not-found' });
    const git = (args: string[], what: string, options: { env?: Record<string, string>; code?: 'artifact-invalid-input' | 'repo-not-found' } = {}) =>
      hostGit(args, { cwd: repo, what, ...options });
    const commits = new Map<string, string>();
    const originals = new Set<string>();
    for (const [index, { bug, instanceId }] of instances.entries()) {
      const original = bug.metadata.commit;
      await git(['cat-file', '-e', `${original}^{commit}`], `${bug.dir}: looking up its original commit ${original} in ${location}`, { code: 'repo-not-found' });
      originals.add(original);
      const indexEnv = { GIT_INDEX_FILE: join(scratch, `index-${index}`) };
      await git(['read-tree', original], `reading the tree of ${original}`, { env: indexEnv });
      for (const [file, diff] of [['bug_inject.diff', bug.artifact.bugInject], ['test_weaken.diff', bug.artifact.testWeaken]] as const) {
        const path = join(scratch, `${index}-${file}`);
        await writeFile(path, diff);
        await git(['apply', '--cached', '--', path], `${bug.dir}/${file}: applying it to ${original.slice(0, 12)}`, { env: indexEnv, code: 'artifact-invalid-input' });
      }
      const tree = await git(['write-tree'], 'writing the instance tree', { env: indexEnv });
      const date = await git(['show', '-s', '--format=%cI', original], `reading the date of ${original}`);
      const commit = await git(['commit-tree', tree, '-m', 'Initial commit'], 'committing the instance', { env: { ...IDENTITY, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
      await git(['update-ref', `refs/heads/${instanceId}`, commit], `naming ${commit} ${instanceId}`);
      commits.set(bug.id, commit);
    }
    const envRefs = [...originals].map((sha) => `refs/heads/ssr-original-${sha.slice(0, 12)}`);
    for (const [i, sha] of [...originals].entries()) await git(['update-ref', envRefs[i]!, sha], `naming ${sha}`);
    await bundle(git, instances.map((i) => `refs/heads/${i.instanceId}`), out.bundle);
    await bundle(git, envRefs, out.envBundle);
    return { commits, ...out };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A bundle of `refs`, HEAD on the first, so `git clone <bundle>` checks something out without a warning. */
async function bundle(git: (args: string[], what: string) => Promise<string>, refs: string[], target: string): Promise<void> {
  const staging = tempSibling(target, 'bundle');
  await git(['symbolic-ref', 'HEAD', refs[0]!], `pointing HEAD at ${refs[0]}`);
  await git(['bundle', 'create', '--quiet', staging, 'HEAD', ...refs], `writing ${target}`);
  await rename(staging, target).catch((error: unknown) => {
    throw diskError(error, `cannot write ${target}`);
  });
}
