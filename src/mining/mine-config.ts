import { join } from 'node:path';
import { z } from 'zod';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { writeJsonAtomic } from '../corpus/atomic-write.js';
import { readJsonFile } from '../corpus/read-json-file.js';
import { EngineError } from '../util/engine-error.js';

/** `<out>/mine.json`: which repo and tip a mined set comes from; a resume must name the same. */
export const mineConfigSchema = z.object({ repo: z.string(), location: z.string(), tip: z.string() });

/**
 * Record the repo on a first run; on a rerun, refuse another repo or tip (the judged commits in
 * mined.jsonl would not be this history's).
 * @throws EngineError `usage` naming both and the fix.
 */
export async function checkMineConfig(out: string, repo: ResolvedRepo): Promise<void> {
  const path = join(out, 'mine.json');
  const mine = { repo: repo.id, location: repo.location, tip: repo.commit };
  const earlier = await readJsonFile(path, mineConfigSchema, { optional: true });
  if (earlier === null) return writeJsonAtomic(path, mine);
  if (earlier.repo !== mine.repo || earlier.tip !== mine.tip) {
    throw new EngineError('usage', `${out} holds commits mined from ${earlier.repo} at ${earlier.tip.slice(0, 12)}, not ${mine.repo} at ${mine.tip.slice(0, 12)}: give another --out, or the same repo to resume`);
  }
}
