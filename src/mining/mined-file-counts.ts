import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDiffParseError } from '../code/diff-parse-error.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';
import { runPaths } from '../corpus/run-layout.js';

/**
 * How many files each mined bug changes (the file sections of its bug_inject.diff), by bug id.
 * Read from the bug dirs, so bugs an earlier run mined count too; a bug dir that is gone or whose
 * diff does not parse is left out (it counts as neither one file nor several).
 */
export async function minedFileCounts(out: string, bugIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const id of bugIds) {
    const text = await readFile(join(runPaths(out).bugDir(id), 'bug_inject.diff'), 'utf8').catch(() => null);
    if (text === null) continue;
    try {
      counts.set(id, parseUnifiedDiff(text).files.length);
    } catch (error) {
      if (!isDiffParseError(error)) throw error;
    }
  }
  return counts;
}
