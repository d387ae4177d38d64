import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { buildIdentity } from '../util/build-identity.js';
import { EngineError, errorMessage } from '../util/engine-error.js';
import { stableStringify } from '../util/stable-json.js';
import { writeJsonAtomic } from './atomic-write.js';

export const RUN_CONFIG_FORMAT = 1;

/** `run.json`: the command that made the run dir and the settings a resume must repeat. */
export const runConfigSchema = z.object({
  format: z.literal(RUN_CONFIG_FORMAT),
  command: z.string().min(1),
  config: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  /** The ssr that created the run (absent in run dirs written before it was recorded). */
  ssr: z.object({ version: z.string(), gitSha: z.string().nullable(), dirty: z.boolean().nullable() }).optional(),
  /** What the latest (re)start ran with (record-provenance.ts); absent in older run dirs. */
  provenance: z.record(z.string(), z.unknown()).optional(),
});
export type RunConfig = z.infer<typeof runConfigSchema>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Dotted paths where two JSON values differ (arrays compare whole). */
export function differingKeys(a: unknown, b: unknown, prefix = ''): string[] {
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((key) => differingKeys(a[key], b[key], prefix === '' ? key : `${prefix}.${key}`));
  }
  return stableStringify(a) === stableStringify(b) ? [] : [prefix === '' ? '(config)' : prefix];
}

/**
 * Create `run.json`, or check that an existing one has the same command and config, so a resume
 * never mixes two settings in one run dir. Pass only the settings that must match (a field that
 * may change between resumes, e.g. a progress flag, does not belong in `config`). Values are
 * compared as JSON (undefined fields vanish).
 *
 * @returns `created`, or `resumed` when the run dir already had a matching run.json.
 * @throws EngineError `usage` naming every differing key with both values; `config-invalid` for
 *   an unreadable run.json.
 */
export async function ensureRunConfig(path: string, command: string, config: Record<string, unknown>): Promise<'created' | 'resumed'> {
  const wanted = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new EngineError('config-invalid', `cannot read ${path}: ${errorMessage(error)}`);
    await writeJsonAtomic(path, { format: RUN_CONFIG_FORMAT, command, config: wanted, createdAt: new Date().toISOString(), ssr: buildIdentity() } satisfies RunConfig);
    return 'created';
  }
  let existing: RunConfig;
  try {
    existing = runConfigSchema.parse(JSON.parse(text));
  } catch (error) {
    throw new EngineError('config-invalid', `${path} is not a run config: ${errorMessage(error)}`);
  }
  if (existing.command !== command) {
    throw new EngineError('usage', `${path} belongs to \`ssr ${existing.command}\`, not \`ssr ${command}\`: use another --out directory`);
  }
  const keys = differingKeys(existing.config, wanted);
  if (keys.length > 0) {
    const detail = keys.map((key) => `${key}: ${show(lookup(existing.config, key))} in the run, ${show(lookup(wanted, key))} now`).join('; ');
    throw new EngineError('usage', `cannot resume ${path} with different settings (${detail}): repeat the original settings or use another --out directory`);
  }
  return 'resumed';
}

function lookup(config: Record<string, unknown>, key: string): unknown {
  if (key === '(config)') return config;
  return key.split('.').reduce<unknown>((value, part) => (isPlainObject(value) ? value[part] : undefined), config);
}

function show(value: unknown): string {
  return value === undefined ? '(unset)' : JSON.stringify(value);
}
