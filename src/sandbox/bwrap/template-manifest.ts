import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { EngineError, errorMessage } from '../../util/engine-error.js';

export const TEMPLATE_MANIFEST = 'template.json';
/** The repository copy every sandbox of the template starts from, relative to the template dir. */
export const TEMPLATE_REPO = 'repo';

/** `template.json` of a bwrap template: what it was built from, and the rootfs it needs. */
export const bwrapTemplateManifestSchema = z.object({
  version: z.literal(1),
  repoId: z.string(),
  location: z.string(),
  commit: z.string(),
  setup: z.array(z.string()),
  rootfs: z.object({ dir: z.string(), hash: z.string() }),
  builtAt: z.string(),
});
export type BwrapTemplateManifest = z.infer<typeof bwrapTemplateManifestSchema>;

/** Read and validate the manifest of a template directory; a missing or broken one is an EngineError. */
export async function readTemplateManifest(templateDir: string): Promise<BwrapTemplateManifest> {
  const path = join(templateDir, TEMPLATE_MANIFEST);
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    throw new EngineError('sandbox-failed', `bwrap template ${templateDir} is missing its ${TEMPLATE_MANIFEST} (${errorMessage(error)}); build it with: ssr build-image --sandbox bwrap`);
  }
  const parsed = bwrapTemplateManifestSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new EngineError('sandbox-failed', `bwrap template ${templateDir}: invalid ${TEMPLATE_MANIFEST}: ${parsed.error.message}`);
  return parsed.data;
}
