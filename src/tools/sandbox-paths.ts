import { posix } from 'node:path';
import { REPO_DIR, type Sandbox } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import { shellQuote, shellQuoteAll } from '../util/shell-quote.js';

/** What a path is inside the sandbox, as far as a tool cares. */
export type PathKind = 'file' | 'missing' | 'directory' | 'broken-link' | 'other';

/** A model-given path made absolute: relative paths are relative to the repository. */
export function resolvePath(path: string): string {
  return posix.normalize(posix.isAbsolute(path) ? path : posix.join(REPO_DIR, path));
}

/** Why a path cannot be read as a file, in words; null when it is a file. */
export function describeKind(kind: PathKind): string | null {
  switch (kind) {
    case 'file':
      return null;
    case 'missing':
      return 'does not exist';
    case 'directory':
      return 'is a directory';
    case 'broken-link':
      return 'is a symlink to nothing';
    case 'other':
      return 'is not a regular file';
  }
}

const KINDS: readonly PathKind[] = ['file', 'missing', 'directory', 'broken-link', 'other'];

/** A probed path: its kind, and the path with every symlink resolved (read that one). */
export interface ProbedPath {
  kind: PathKind;
  resolved: string;
}

/**
 * Kind and real path of every path, in one round trip (NUL-separated: a path may hold a newline).
 * A failure of the probe itself is infrastructure: the script cannot fail on any path a model gives.
 */
export async function probePaths(sandbox: Sandbox, paths: readonly string[]): Promise<ProbedPath[]> {
  if (paths.length === 0) return [];
  const script =
    `set -- ${shellQuoteAll(paths)}; for p; do ` +
    `if [ -L "$p" ] && [ ! -e "$p" ]; then k=broken-link; elif [ ! -e "$p" ]; then k=missing; ` +
    `elif [ -d "$p" ]; then k=directory; elif [ -f "$p" ]; then k=file; else k=other; fi; ` +
    `printf '%s\\0%s\\0' "$k" "$(readlink -f -- "$p" || printf %s "$p")"; done`;
  const result = await sandbox.exec(script, { timeoutMs: 30_000, cwd: REPO_DIR });
  const fields = result.output.split('\0');
  const probed = paths.map((_, i) => ({ kind: fields[2 * i] as PathKind, resolved: fields[2 * i + 1] ?? '' }));
  if (result.exitCode !== 0 || fields.length !== 2 * paths.length + 1 || !probed.every((p) => KINDS.includes(p.kind))) {
    throw new EngineError('sandbox-failed', `probing paths in sandbox ${sandbox.id} failed (exit ${result.exitCode}): ${result.output.slice(0, 500)}`, {
      retryable: true,
    });
  }
  return probed;
}

/**
 * Overwrite an existing file through the shell (`cat >`), so its mode, owner and symlink target
 * are kept, unlike a fresh write. Returns the shell's complaint, or null on success.
 */
export async function overwriteFile(sandbox: Sandbox, path: string, content: string): Promise<string | null> {
  const result = await sandbox.exec(`cat > ${shellQuote(path)}`, { stdin: content, timeoutMs: 60_000, cwd: REPO_DIR });
  if (result.timedOut) throw new EngineError('sandbox-failed', `writing ${path} in sandbox ${sandbox.id} timed out`, { retryable: true });
  return result.exitCode === 0 ? null : result.output.trim() || `exit code ${result.exitCode}`;
}
