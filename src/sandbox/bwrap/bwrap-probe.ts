import { execFile } from 'node:child_process';
import { EngineError } from '../../util/engine-error.js';
import { INSTALL_HINT } from './bwrap-run.js';

let probe: Promise<void> | undefined;

function tryBwrap(): Promise<void> {
  return new Promise((resolve, reject) => {
    // The same namespaces and capability drop every sandbox uses, on a throw-away view of `/`.
    const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--', 'true'];
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
