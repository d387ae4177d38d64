import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { EngineError, errorMessage } from '../util/engine-error.js';

/**
 * Read and validate a JSON file of a run dir.
 * @returns null when the file is missing and `optional`.
 * @throws EngineError `artifact-invalid-input` naming the file: unreadable, not JSON, wrong shape.
 */
export async function readJsonFile<S extends z.ZodType>(path: string, schema: S, options: { optional?: boolean } = {}): Promise<z.infer<S> | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (options.optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new EngineError('artifact-invalid-input', `cannot read ${path}: ${errorMessage(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EngineError('artifact-invalid-input', `${path} is not JSON: ${errorMessage(error)}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new EngineError('artifact-invalid-input', `${path}: ${parsed.error.message}`);
  return parsed.data as z.infer<S>;
}
