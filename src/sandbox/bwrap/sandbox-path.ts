import { lstat, readlink } from 'node:fs/promises';
import { posix } from 'node:path';
import { EngineError } from '../../util/engine-error.js';
import { REPO_DIR, SCRATCH_DIR } from '../sandbox.js';
import { HOME_DIR, TMP_DIR } from './bwrap-args.js';

/** Host directories behind the sandbox's writable mounts, the ones the host can address. */
export interface SandboxMounts {
  repo: string;
  scratch: string;
  tmp: string;
  home: string;
}

const ADDRESSABLE = `${REPO_DIR}, ${SCRATCH_DIR}, ${TMP_DIR} and ${HOME_DIR}`;

/** The host directory behind a top-level sandbox directory, when it is one of the mounts. */
function mountOf(top: string | undefined, mounts: SandboxMounts): string | undefined {
  const byDir: Record<string, string> = { [REPO_DIR]: mounts.repo, [SCRATCH_DIR]: mounts.scratch, [TMP_DIR]: mounts.tmp, [HOME_DIR]: mounts.home };
  return top === undefined ? undefined : byDir[`/${top}`];
}

export interface ResolvedSandboxPath {
  /** Canonical path inside the sandbox, symlinks resolved (as far as the file exists). */
  sandboxPath: string;
  /** The same file on the host. */
  hostPath: string;
  /** Whether the final component exists; parents up to `existingParent` exist too. */
  exists: boolean;
  /** Deepest existing directory on the way (host path); missing dirs below it must be created. */
  existingParent: string;
}

const MAX_SYMLINK_HOPS = 40;

function usage(message: string): EngineError {
  return new EngineError('usage', message);
}

/** Host path of a canonical sandbox path made of components, or an error if outside the mounts. */
function toHost(parts: readonly string[], mounts: SandboxMounts, original: string): string {
  const [top, ...rest] = parts;
  const root = mountOf(top, mounts);
  if (root === undefined) {
    const where = `/${parts.join('/')}`;
    throw usage(`${original}: resolves to ${where}; on the bwrap backend only ${ADDRESSABLE} are addressable from the host`);
  }
  return posix.join(root, ...rest);
}

function split(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

/**
 * Resolve a sandbox path (absolute, or relative to {@link REPO_DIR}) to a host path with the
 * sandbox's own semantics: symlinks are followed as the sandbox would see them (an absolute
 * target is a sandbox path), `..` never climbs above the sandbox root, and whatever lands outside
 * the sandbox's own mounts ({@link SandboxMounts}: the rootfs, /etc/passwd, /proc) is refused.
 * The host's own symlink resolution is never used, so no link can reach a host file outside them.
 * Race note: check-then-use; safe while no command of the same sandbox runs (bwrap kills every
 * sandbox process when its command ends).
 */
export async function resolveSandboxPath(path: string, mounts: SandboxMounts): Promise<ResolvedSandboxPath> {
  if (path === '' || path.includes('\0')) throw usage(`invalid sandbox path ${JSON.stringify(path)}`);
  // Not posix.join: it would apply `..` lexically, before the links it climbs out of are followed.
  const absolute = path.startsWith('/') ? path : `${REPO_DIR}/${path}`;
  const pending = split(absolute);
  const resolved: string[] = [];
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '..') {
      resolved.pop();
      continue;
    }
    const candidate = [...resolved, part];
    const host = toHost(candidate, mounts, path);
    const stats = await lstat(host).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new EngineError('sandbox-failed', `${path}: ${error.message}`);
    });
    if (stats === undefined) {
      // Missing from here on: no more links to follow, only names (and `..`) to apply.
      const existingParent = toHost(resolved.length > 0 ? resolved : candidate, mounts, path);
      const tail = pending.filter((rest) => rest !== '..');
      if (tail.length !== pending.length) throw usage(`${path}: ".." after a missing directory`);
      const parts = [...candidate, ...tail];
      return { sandboxPath: `/${parts.join('/')}`, hostPath: toHost(parts, mounts, path), exists: false, existingParent };
    }
    if (stats.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) throw usage(`${path}: too many levels of symbolic links`);
      const target = await readlink(host);
      if (target.startsWith('/')) resolved.length = 0;
      pending.unshift(...split(target));
      continue;
    }
    if (pending.length > 0 && !stats.isDirectory()) {
      throw new EngineError('sandbox-failed', `${path}: /${candidate.join('/')} is not a directory`);
    }
    resolved.push(part);
  }
  const hostPath = toHost(resolved, mounts, path);
  return { sandboxPath: `/${resolved.join('/')}`, hostPath, exists: true, existingParent: posix.dirname(hostPath) };
}
