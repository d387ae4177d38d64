import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { EngineError, errorMessage } from '../util/engine-error.js';

/** A dot-prefixed sibling name: readers of the run dir skip dot files. */
export function tempSibling(path: string, kind: string): string {
  return join(dirname(path), `.${basename(path)}.${kind}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

export function diskError(error: unknown, what: string): EngineError {
  const code = (error as NodeJS.ErrnoException).code === 'ENOSPC' ? 'disk-full' : 'internal';
  return new EngineError(code, `${what}: ${errorMessage(error)}`, { cause: error });
}

/**
 * Replace `path` with `data` atomically: write a temp sibling, fsync it, rename it over `path`.
 * A reader (or a process killed at any moment) sees the old file or the new one, never a part.
 *
 * @throws EngineError `disk-full` (ENOSPC) or `internal` naming the path.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const temp = tempSibling(path, 'tmp');
  try {
    await mkdir(dirname(path), { recursive: true });
    const file = await open(temp, 'wx', options.mode ?? 0o644);
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw diskError(error, `cannot write ${path}`);
  }
}

/** {@link writeFileAtomic} of pretty JSON with a trailing newline. */
export function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}
