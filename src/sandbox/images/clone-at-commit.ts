import { EngineError } from '../../util/engine-error.js';
import { runProcess } from './run-process.js';

async function git(args: string[], what: string): Promise<string> {
  const result = await runProcess('git', args).catch((error: unknown) => {
    throw new EngineError('image-build-failed', `cannot run git (${(error as Error).message}); install git`);
  });
  if (result.exitCode !== 0) throw new EngineError('image-build-failed', `${what} failed (git exit ${result.exitCode}):\n${result.tail}`);
  return result.tail;
}

/**
 * Clone `location` (a repository path, URL or bundle file) into `target` with full history and
 * check out `commit` as branch `main`. Remotes and every other branch are removed, so the
 * sandbox holds no commits from after the pinned one except what tags point at.
 */
export async function cloneAtCommit(location: string, commit: string, target: string): Promise<void> {
  await git(['clone', '--quiet', '--no-hardlinks', '--', location, target], `git clone ${location}`);
  await git(['-C', target, 'checkout', '--quiet', '--force', '-B', 'main', commit], `checking out ${commit} of ${location}`);
  const branches = (await git(['-C', target, 'for-each-ref', '--format=%(refname:short)', 'refs/heads'], 'listing branches'))
    .split('\n')
    .filter((branch) => branch !== '' && branch !== 'main');
  if (branches.length > 0) await git(['-C', target, 'branch', '-D', ...branches], 'removing branches');
  const remotes = (await git(['-C', target, 'remote'], 'listing remotes')).split('\n').filter((remote) => remote !== '');
  for (const remote of remotes) await git(['-C', target, 'remote', 'remove', remote], `removing remote ${remote}`);
}
