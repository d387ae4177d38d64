import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { AnchorBugs } from './anchor-bug.js';
import { EngineError, isEngineError } from '../../util/engine-error.js';
import { seededRng } from '../../util/seeded-rng.js';
import type { EvalInstance } from '../../evaluation/eval-instance.js';
import { readSetInstances } from '../../evaluation/read-set-instances.js';
import { refuseMissingImages } from '../../evaluation/missing-images.js';
import type { RepoLookup } from '../../evaluation/repo-lookup.js';

export interface LoadAnchorOptions {
  /** `--anchor-set`, absolute. */
  set: string;
  /** The run's repos: every anchor bug must be of one of them. */
  repos: readonly ResolvedRepo[];
  seed: number;
  /** Whether a Docker image exists (null: not Docker, user images are not checked). */
  imageExists: ((ref: string) => Promise<boolean>) | null;
}

const flag = (set: string): string => `--anchor-set ${set}`;

/**
 * Self-play anchoring (`--anchor-set`): read the set with `ssr eval`'s loaders (a dir with bugs/: its valid bugs; a SWE-bench
 * format JSONL: its lines) and check it before any episode: it exists, is well formed, holds at
 * least one real bug, only bugs of the run's repos, and names no image this machine lacks.
 * @throws EngineError naming the set and what is wrong with it (`usage`, or the loader's code
 *   for a malformed line or bug dir).
 */
export async function loadAnchorSet(options: LoadAnchorOptions): Promise<AnchorBugs> {
  const { set, repos } = options;
  const ids = repos.map((repo) => repo.id).join(', ');
  const lookup: RepoLookup = async (id, where) => {
    const repo = repos.find((candidate) => candidate.id === id);
    if (!repo) throw new EngineError('usage', `${flag(set)}: ${where} is a bug of repo ${id}, not of this run's repos (${ids}): anchor a run with real bugs of the repos it trains on`);
    return repo;
  };
  let instances: EvalInstance[];
  try {
    instances = await readSetInstances(set, lookup, { flag: '--anchor-set', set, hint: 'give a mined set from ssr mine, a run or corpus dir, or a SWE-bench-format .jsonl' });
  } catch (error) {
    if (!isEngineError(error) || error.message.startsWith(flag(set))) throw error;
    throw new EngineError(error.code, `${flag(set)}: ${error.message}`, { cause: error });
  }
  // A JSONL line with its own environment_bundle names a repo the lookup never saw.
  const foreign = instances.filter((instance) => !repos.some((repo) => repo.id === instance.repo.id));
  if (foreign.length > 0) {
    const named = foreign.slice(0, 3).map((instance) => `${instance.instanceId} (repo ${instance.repo.id})`).join(', ');
    throw new EngineError('usage', `${flag(set)}: ${foreign.length} bug(s) of repos this run does not train on (${ids}): ${named}; anchor a run with real bugs of its own repos`);
  }
  if (instances.length === 0) throw new EngineError('usage', `${flag(set)}: no valid real bug in it (mine some with ssr mine --repo <id> --out <dir>)`);
  if (options.imageExists) await refuseMissingImages(instances, options.imageExists);
  const byRepo = new Map<string, EvalInstance[]>();
  for (const repo of repos) {
    const own = instances.filter((instance) => instance.repo.id === repo.id).sort((a, b) => a.instanceId.localeCompare(b.instanceId));
    byRepo.set(repo.id, seededRng(`${options.seed}:anchors:${repo.id}`).shuffle(own));
  }
  return byRepo;
}
