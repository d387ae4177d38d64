import { execFile } from 'node:child_process';
import { lstatSync, readlinkSync } from 'node:fs';
import { EngineError } from '../../util/engine-error.js';
import { INSTALL_HINT } from './bwrap-run.js';

let probe: Promise<void> | undefined;

/** Top-level paths besides /usr that `true` may need: a symlink into /usr on merged-/usr hosts, a directory elsewhere. */
const LOADER_PATHS = ['/bin', '/lib', '/lib32', '/lib64', '/sbin'];

/**
 * A minimal read-only view for the probe: /usr and the loader paths, never all of `/`. Binding
 * `/` recursively remounts every mount under it read-only, and a host running containers has
 * mounts of its own there (an overlay's `/etc/hostname` bind) that appear and vanish while bwrap
 * walks them: the remount then fails with EINVAL and a host that can run sandboxes looks as if
 * it could not.
 */
export function probeViewArgs(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const path of LOADER_PATHS) {
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
      else if (stat.isDirectory()) args.push('--ro-bind', path, path);
    } catch {
      // absent on this host: nothing to show
    }
  }
  return args;
}

function tryBwrap(): Promise<void> {
  return new Promise((resolve, reject) => {
    // The same namespaces and capability drop every sandbox uses, on a throw-away view of the host's programs.
    const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--cap-drop', 'ALL', ...probeViewArgs(), '--', 'true'];
    execFile('bwrap', args, { timeout: 30_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'bwrap is not installed' : stderr.trim() || error.message;
      reject(
        new EngineError('bwrap-unavailable', `bubblewrap cannot create a sandbox here: ${reason} (${INSTALL_HINT}; user namespaces must be enabled)`),
      );
    });
  });
}

/**
 * Check once per process that bwrap exists and can create the namespaces a sandbox needs (user
 * namespaces disabled by the kernel, or a container without them, fail here with the reason).
 * A failed probe is retried on the next call.
 */
export function probeBwrap(): Promise<void> {
  probe ??= tryBwrap().catch((error: unknown) => {
    probe = undefined;
    throw error;
  });
  return probe;
}
