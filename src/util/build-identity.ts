import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.js';

/** Which ssr wrote something: recorded in run.json so a run can be tied to the code that made it. */
export interface BuildIdentity {
  /** package.json `version`. */
  version: string;
  /** The commit of the ssr checkout, or null when ssr does not run from a git checkout. */
  gitSha: string | null;
  /** Whether that checkout had uncommitted changes (null without a checkout). */
  dirty: boolean | null;
}

let cached: BuildIdentity | undefined;

export function buildIdentity(): BuildIdentity {
  cached ??= readIdentity();
  return cached;
}

/** package.json `version` alone: what `ssr --version` prints, without the git calls of {@link buildIdentity}. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
}

function readIdentity(): BuildIdentity {
  const root = packagePath();
  const version = packageVersion();
  const git = (...args: string[]): string | null => {
    try {
      return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const gitSha = git('rev-parse', '--verify', 'HEAD');
  if (gitSha === null || !/^[0-9a-f]{40}$/.test(gitSha)) return { version, gitSha: null, dirty: null };
  const status = git('status', '--porcelain', '--untracked-files=no');
  return { version, gitSha, dirty: status === null ? null : status !== '' };
}
