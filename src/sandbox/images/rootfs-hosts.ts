import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProgressSink } from '../../util/progress.js';
import { errorMessage } from '../../util/engine-error.js';

/** The /etc/hosts of a sandbox: loopback names only (a sandbox has no other network). */
export const LOOPBACK_HOSTS = '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n';

/**
 * Give a base rootfs the /etc/hosts debootstrap does not write. Without it `localhost` does not
 * resolve in a bubblewrap sandbox (its `/` is this directory, read-only, so nothing can be bound
 * over a missing file), and test suites that start a server on `localhost` (Vite, Jest's
 * watchers, HTTP fixtures) fail with EAI_AGAIN. Docker mounts its own /etc/hosts instead.
 * Idempotent; a rootfs built before this existed is repaired in place (atomically) rather than
 * rebuilt. A caller that cannot write the directory (not root) is told why, and goes on.
 */
export async function ensureRootfsHosts(root: string, progress: ProgressSink): Promise<void> {
  const path = join(root, 'etc', 'hosts');
  if (existsSync(path)) return;
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, LOOPBACK_HOSTS, { mode: 0o644 });
    await rename(tmp, path);
  } catch (error) {
    progress({ stage: 'setup', message: `warning: cannot add ${path} (${errorMessage(error)}): localhost will not resolve in bwrap sandboxes until it exists (run ssr build-image as root once)` });
  }
}
