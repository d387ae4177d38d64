import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile } from '../corpus/read-json-file.js';
import { inverseRedundancyFor, type InverseRedundancyMode } from '../validator/inverse-redundancy-mode.js';

/** What of a bug dir's metadata.json says whose bug it is (`strategy`: `mined` for a real fix). */
const metadataKindSchema = z.object({ strategy: z.string() });

/**
 * The mode for an artifact dir as `ssr validate --artifact` is given it: a stored bug dir (it has
 * metadata.json) of a mined bug is a real fix (`record`); any other dir, `enforce` (a
 * metadata.json that does not parse says nothing of whose bug it is: validation reads only the
 * five files).
 */
export async function inverseRedundancyOfDir(dir: string): Promise<InverseRedundancyMode> {
  const metadata = await readJsonFile(join(dir, 'metadata.json'), metadataKindSchema.passthrough(), { optional: true }).catch(() => null);
  return inverseRedundancyFor(metadata?.strategy);
}
