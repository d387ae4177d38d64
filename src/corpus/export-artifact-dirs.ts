import { cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { diskError, tempSibling } from './atomic-write.js';
import type { StoredBug } from './read-stored-bug.js';

/**
 * Copy each bug dir (five files, metadata.json, validation.json, solves.json) to `<out>/<bug-id>/`,
 * each through a staging dir renamed into place. A bug dir already in `out` is left as it is
 * (bug ids are content hashes).
 * @returns how many were copied and how many were already there.
 */
export async function exportArtifactDirs(bugs: readonly StoredBug[], out: string): Promise<{ copied: number; existing: number }> {
  let copied = 0;
  await mkdir(out, { recursive: true }).catch((error: unknown) => {
    throw diskError(error, `cannot create ${out}`);
  });
  for (const bug of bugs) {
    const target = join(out, bug.id);
    if (await stat(target).catch(() => null)) continue;
    const staging = tempSibling(target, 'staging');
    try {
      // Dot files are in-progress writes (a solves.json being replaced), not part of the bug.
      await cp(bug.dir, staging, { recursive: true, errorOnExist: true, filter: (source) => source === bug.dir || !basename(source).startsWith('.') });
      await rename(staging, target);
      copied += 1;
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw diskError(error, `cannot copy ${bug.dir} to ${target}`);
    }
  }
  return { copied, existing: bugs.length - copied };
}
