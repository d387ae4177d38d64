import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { EngineError } from '../util/engine-error.js';
import { isProcessAlive } from '../util/process-alive.js';

/**
 * Claim a run dir for this process through a pid file. Two live processes appending to one run
 * dir would each skip only their own ids and duplicate each other's; a pid file left by a
 * killed process is taken over. Reopening from the same process is allowed.
 *
 * @throws EngineError `usage` when a live process other than this one holds the lock.
 */
export async function claimRunLock(path: string): Promise<void> {
  try {
    const file = await open(path, 'wx');
    await file.writeFile(`${process.pid}\n`);
    await file.close();
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = Number.parseInt((await readFile(path, 'utf8').catch(() => '')).trim(), 10);
  if (Number.isInteger(holder) && holder !== process.pid && isProcessAlive(holder)) {
    throw new EngineError('usage', `the run dir is in use by process ${holder} (${path}); wait for it, or delete the file if no such run is active`);
  }
  await writeFile(path, `${process.pid}\n`);
}

/** Give the run dir up (only if this process holds it). */
export async function releaseRunLock(path: string): Promise<void> {
  const holder = Number.parseInt((await readFile(path, 'utf8').catch(() => '')).trim(), 10);
  if (holder === process.pid) await rm(path, { force: true });
}
