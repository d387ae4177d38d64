import { hostGit } from '../../util/host-git.js';

/** Full stdout (listings of refs can be long), git's stderr in the error. */
const git = (args: string[], what: string): Promise<string> => hostGit(args, { cwd: process.cwd(), what, code: 'image-build-failed' });

/**
 * Clone `location` (a repository path, URL or bundle file) into `target` with full history and
 * check out `commit` as branch `main`, for every backend (Docker image, bubblewrap template, and
 * k8s, which runs the Docker image). Remotes, every other branch and every tag that is not in the
 * commit's history are removed: nothing in the copy names the repo's future (a later fix an
 * Injector or Solver could read back with `git log --all` or `git show <tag>`). Then the reflogs
 * are expired and every object no longer reachable from `main` and the kept tags is pruned: a clone
 * copies the whole object store, so a later commit would otherwise stay readable as a dangling
 * object (`git fsck --unreachable`, `git cat-file --batch-all-objects`).
 *
 * @throws EngineError `image-build-failed` with git's output when a step fails.
 */
export async function cloneAtCommit(location: string, commit: string, target: string): Promise<void> {
  await git(['clone', '--quiet', '--no-hardlinks', '--', location, target], `git clone ${location}`);
  await git(['-C', target, '-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--force', '-B', 'main', commit], `checking out ${commit} of ${location}`);
  const branches = lines(await git(['-C', target, 'for-each-ref', '--format=%(refname:short)', 'refs/heads'], 'listing branches')).filter((branch) => branch !== 'main');
  if (branches.length > 0) await git(['-C', target, 'branch', '--quiet', '-D', ...branches], 'removing branches');
  for (const remote of lines(await git(['-C', target, 'remote'], 'listing remotes'))) await git(['-C', target, 'remote', 'remove', remote], `removing remote ${remote}`);
  const future = lines(await git(['-C', target, 'tag', '--no-merged', 'HEAD'], 'listing tags after the commit'));
  if (future.length > 0) await git(['-C', target, 'tag', '-d', ...future], 'removing tags after the commit');
  await git(['-C', target, 'reflog', 'expire', '--expire=now', '--all'], 'expiring the reflogs');
  await git(['-C', target, '-c', 'gc.auto=0', 'gc', '--quiet', '--prune=now'], 'pruning the objects after the commit');
}

function lines(output: string): string[] {
  return output.split('\n').map((line) => line.trim()).filter((line) => line !== '');
}
