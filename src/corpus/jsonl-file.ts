import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { EngineError, errorMessage } from '../util/engine-error.js';
import { diskError } from './atomic-write.js';
import { withPathLock } from './path-lock.js';

export interface JsonlContent<T> {
  records: T[];
  /** The file ended in a line without its newline (a write cut short), which was ignored. */
  torn: boolean;
  /** Bytes of the complete lines: where the next append must start. */
  completeBytes: number;
}

/**
 * Read a JSONL file written by {@link appendJsonl}. A line counts only once its newline is
 * written, so a last line without one (a process killed mid-append) is ignored, even if it
 * happens to parse. A missing file is empty.
 *
 * @throws EngineError `artifact-invalid-input` naming the file and line, for a complete line that
 *   is not JSON or does not match `schema` (corruption that no crash of ours produces).
 */
export async function readJsonl<S extends z.ZodType>(path: string, schema: S): Promise<JsonlContent<z.infer<S>>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], torn: false, completeBytes: 0 };
    throw diskError(error, `cannot read ${path}`);
  }
  const completeBytes = bytes.lastIndexOf(0x0a) + 1;
  const lines = bytes.subarray(0, completeBytes).toString('utf8').split('\n');
  lines.pop();
  const records = lines.map((line, index) => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new EngineError('artifact-invalid-input', `${path}:${index + 1}: not JSON: ${errorMessage(error)}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new EngineError('artifact-invalid-input', `${path}:${index + 1}: ${parsed.error.message}`);
    return parsed.data as z.infer<S>;
  });
  return { records, torn: completeBytes < bytes.length, completeBytes };
}

/** Cut a torn last line off, so the next line does not glue onto it. Reads only the file's tail. */
async function dropTornTail(path: string): Promise<void> {
  let file;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const size = (await file.stat()).size;
    const chunk = Buffer.alloc(64 * 1024);
    // Scan backwards for the last newline; usually the very last byte is one.
    for (let end = size; end > 0; end -= chunk.length) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await file.read(chunk, 0, end - start, start);
      const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (at !== -1) {
        if (start + at + 1 < size) await truncate(path, start + at + 1);
        return;
      }
    }
    if (size > 0) await truncate(path, 0);
  } finally {
    await file.close();
  }
}

/**
 * Append records as whole lines with one write, then fsync. A torn last line left by a killed
 * process is cut off first. Appends to one path are serialised within the process; a caller that
 * must check-then-append (idempotency by id) holds {@link withPathLock} itself and calls
 * {@link appendJsonlLocked}.
 *
 * @throws EngineError `disk-full` or `internal` naming the path.
 */
export function appendJsonl(path: string, records: readonly unknown[]): Promise<void> {
  return withPathLock(path, () => appendJsonlLocked(path, records));
}

/** {@link appendJsonl} for a caller that already holds `withPathLock(path)`. */
export async function appendJsonlLocked(path: string, records: readonly unknown[]): Promise<void> {
  if (records.length === 0) return;
  const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
  try {
    await mkdir(dirname(path), { recursive: true });
    await dropTornTail(path);
    const file = await open(path, 'a');
    try {
      await file.appendFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
  } catch (error) {
    throw diskError(error, `cannot append to ${path}`);
  }
}
