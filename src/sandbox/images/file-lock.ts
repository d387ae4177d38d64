import { open, readFile, rename, stat, unlink, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isProcessAlive } from '../../util/process-alive.js';

/** How often a waiting process looks at the lock again. */
const POLL_MS = 250;
/** A lock file with no readable pid older than this was left by a writer that died mid-write. */
const EMPTY_LOCK_GRACE_MS = 10_000;

async function isStale(path: string): Promise<boolean> {
  try {
    const pid = Number((await readFile(path, 'utf8')).trim());
    if (Number.isInteger(pid) && pid > 0) return !isProcessAlive(pid);
    return Date.now() - (await stat(path)).mtimeMs > EMPTY_LOCK_GRACE_MS;
  } catch {
    return false; // vanished meanwhile: the next attempt to create it decides
  }
}

async function tryCreate(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx');
    await handle.writeFile(String(process.pid));
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Run `fn` holding an exclusive lock file (`O_EXCL`, holding our pid) so that concurrent
 * processes (vitest workers, parallel CLI runs) build a shared artifact once. A lock whose pid is
 * dead is taken over. Callers must still publish their result atomically (rename): the lock is an
 * optimisation against duplicate work, not what keeps the cache consistent.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
  await mkdir(dirname(path), { recursive: true });
  let announced = false;
  while (!(await tryCreate(path))) {
    if (await isStale(path)) {
      // Rename first: only one of several waiters that saw the same stale lock moves it away.
      await rename(path, `${path}.stale-${process.pid}`).then(
        () => unlink(`${path}.stale-${process.pid}`),
        () => undefined,
      );
      continue;
    }
    if (!announced) onWait?.();
    announced = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return await fn();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
