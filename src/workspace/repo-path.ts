import { posix } from 'node:path';
import { REPO_DIR } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';

/**
 * A path inside the repository, normalised relative to its root: `./a//b` → `a/b`, and
 * `/repo/a/b` → `a/b`. Anything that leaves the repository, names the root itself, reaches into
 * `.git`, or contains a NUL or newline is rejected as invalid input (these paths come from artifacts).
 */
export function repoRelativePath(path: string): string {
  const invalid = (why: string): EngineError => new EngineError('artifact-invalid-input', `invalid repository path "${path}": ${why}`);
  if (path.includes('\0') || path.includes('\n')) throw invalid('contains a NUL byte or a newline');
  let relative = path;
  if (posix.isAbsolute(path)) {
    if (!path.startsWith(`${REPO_DIR}/`)) throw invalid(`absolute paths must be under ${REPO_DIR}`);
    relative = path.slice(REPO_DIR.length + 1);
  }
  const normalised = posix.normalize(relative).replace(/\/+$/, '');
  if (normalised === '' || normalised === '.') throw invalid('names the repository root');
  if (normalised === '..' || normalised.startsWith('../')) throw invalid('leaves the repository');
  if (normalised === '.git' || normalised.startsWith('.git/')) throw invalid('points into .git');
  return normalised;
}
