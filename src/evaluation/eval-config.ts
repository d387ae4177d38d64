import { join } from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../corpus/atomic-write.js';
import { readJsonFile } from '../corpus/read-json-file.js';
import { EngineError } from '../util/engine-error.js';

/** `<out>/eval-config.json`: the set and policy an eval dir's attempts belong to. */
export const evalConfigSchema = z.object({ set: z.string(), policy: z.string() });
export type EvalConfig = z.infer<typeof evalConfigSchema>;

/**
 * Record the set and policy on a first run; refuse a rerun with another (its attempts would be
 * averaged with this policy's, or belong to other instances).
 * @throws EngineError `usage` naming both and the fix.
 */
export async function checkEvalConfig(out: string, config: EvalConfig): Promise<void> {
  const path = join(out, 'eval-config.json');
  const earlier = await readJsonFile(path, evalConfigSchema, { optional: true });
  if (earlier === null) return writeJsonAtomic(path, config);
  for (const key of ['set', 'policy'] as const) {
    if (earlier[key] !== config[key]) {
      throw new EngineError('usage', `${out} holds attempts of ${key} ${earlier[key]}, not ${config[key]}: give another --out, or the same --set and policy to resume`);
    }
  }
}
