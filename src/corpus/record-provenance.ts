import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { buildIdentity } from '../util/build-identity.js';
import { EngineError, errorMessage } from '../util/engine-error.js';
import { writeJsonAtomic } from './atomic-write.js';
import { runConfigSchema } from './run-config.js';

/**
 * run.json's `provenance`: what the latest invocation that wrote the run dir really ran with, beyond
 * the resume key in `config` (which must not change): every setting after defaults, flags and env,
 * the sandbox image of each repo, and the model server. Rewritten by every (re)start, so a
 * resumed run shows what its last process used; `ssr` there is that process's build, `run.json.ssr`
 * the one that created the run.
 */
export const runProvenanceSchema = z.object({
  startedAt: z.string(),
  pid: z.number().int(),
  ssr: z.object({ version: z.string(), gitSha: z.string().nullable(), dirty: z.boolean().nullable() }),
  /** The command's resolved settings (secrets such as the API key left out). */
  settings: z.record(z.string(), z.unknown()),
  /** Per repo id: the template its sandboxes start from (Docker tag + image id, or the bwrap dir). */
  images: z.record(z.string(), z.object({ backend: z.string(), ref: z.string(), imageId: z.string().nullable() })),
  /** The model server from the preflight; null for model-free policies (or a preflight skipped). */
  server: z
    .object({
      kind: z.string(),
      root: z.string(),
      model: z.string(),
      models: z.array(z.string()),
      context: z.object({ tokens: z.number(), source: z.string() }).nullable(),
      toolProtocol: z.string(),
    })
    .nullable(),
});
export type RunProvenance = z.infer<typeof runProvenanceSchema>;

/**
 * Write `provenance` into an existing run.json (atomically; its other fields untouched).
 * @throws EngineError `config-invalid` when run.json cannot be read as a run config.
 */
export async function recordProvenance(path: string, provenance: Omit<RunProvenance, 'startedAt' | 'pid' | 'ssr'>): Promise<RunProvenance> {
  let existing: Record<string, unknown>;
  try {
    const text = await readFile(path, 'utf8');
    existing = runConfigSchema.parse(JSON.parse(text));
  } catch (error) {
    throw new EngineError('config-invalid', `${path} is not a run config: ${errorMessage(error)}`);
  }
  const full = runProvenanceSchema.parse({ startedAt: new Date().toISOString(), pid: process.pid, ssr: buildIdentity(), ...provenance });
  await writeJsonAtomic(path, { ...existing, provenance: full });
  return full;
}
