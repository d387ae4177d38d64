import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PruneResult } from '../prune-result.js';

const HASH = /^[0-9a-f]{12}$/;

/**
 * Remove `repoId`'s bwrap template directories under `templatesDir` other than `keepDir`
 * (`<repo id>-<hash12>`, built for an older commit, recipe or rootfs). A template still being
 * built (its `.lock` exists) is kept. Sandboxes already acquired are private copies and live on.
 */
export function pruneBwrapTemplates(templatesDir: string, repoId: string, keepDir: string): Promise<PruneResult> {
  return removeBwrapTemplates(templatesDir, repoId, (dir) => dir !== keepDir);
}

/** Remove `repoId`'s bwrap template directories that `isTarget` picks, as {@link pruneBwrapTemplates} does. */
export async function removeBwrapTemplates(templatesDir: string, repoId: string, isTarget: (dir: string) => boolean): Promise<PruneResult> {
  const result: PruneResult = { removed: [], kept: [] };
  const entries = await readdir(templatesDir).catch(() => [] as string[]);
  for (const entry of entries.sort()) {
    if (!entry.startsWith(`${repoId}-`) || !HASH.test(entry.slice(repoId.length + 1))) continue;
    const dir = join(templatesDir, entry);
    if (!isTarget(dir)) continue;
    if (existsSync(`${dir}.lock`)) {
      result.kept.push({ ref: dir, reason: 'being built by another process' });
      continue;
    }
    await rm(dir, { recursive: true, force: true });
    result.removed.push(dir);
  }
  return result;
}
