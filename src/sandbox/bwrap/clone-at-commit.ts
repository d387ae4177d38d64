import { hostGit } from '../../util/host-git.js';

const git = (args: string[], cwd = process.cwd()): Promise<string> => hostGit(args, { cwd, what: `git ${args.join(' ')}`, code: 'repo-not-found' });

/**
 * Clone `location` (a directory, bare repo, bundle file or URL) into `dest` with its own object
 * store, and leave it on branch `main` at `commit` with no remotes, no other branches and no tag
 * that is not in the commit's history: nothing in the copy points at the repo's future.
 */
export async function cloneAtCommit(location: string, commit: string, dest: string): Promise<void> {
  await git(['clone', '--no-hardlinks', '--quiet', '--', location, dest]);
  await git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '-B', 'main', commit], dest);
  for (const remote of (await git(['remote'], dest)).split('\n').filter(Boolean)) {
    await git(['remote', 'remove', remote], dest);
  }
  const branches = (await git(['for-each-ref', '--format=%(refname:short)', 'refs/heads'], dest)).split('\n');
  const others = branches.filter((branch) => branch !== '' && branch !== 'main');
  if (others.length > 0) await git(['branch', '--quiet', '-D', ...others], dest);
  const future = (await git(['tag', '--no-merged', 'HEAD'], dest)).split('\n').filter(Boolean);
  if (future.length > 0) await git(['tag', '-d', ...future], dest);
}
