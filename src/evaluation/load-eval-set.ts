import { resolve } from 'node:path';
import type { LoadedRepos } from '../config/load-repos.js';
import { dockerClient, imageExists } from '../sandbox/docker/docker-client.js';
import type { SandboxBackend } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import type { EvalInstance } from './eval-instance.js';
import { readSetInstances } from './read-set-instances.js';
import { refuseMissingImages } from './missing-images.js';
import { repoLookup } from './repo-lookup.js';

export interface EvalSetSource {
  /** The flag that named the set (`--set`, `--eval-set`), for the errors. */
  flag: string;
  /** What the flag gave: a dir with bugs/ or a SWE-bench-format JSONL. */
  set: string;
  repos: LoadedRepos | undefined;
  /** `--repo <path>` repositories a bug may have come from. */
  repoPaths: readonly string[];
  backend: SandboxBackend;
}

/**
 * A held-out set's instances, as `ssr eval` and `ssr selfplay --eval-set` read it, refused before
 * any episode when it does not exist, is malformed, holds no valid instance, or names Docker
 * images this machine does not have.
 * @throws EngineError `usage` / `artifact-invalid-input` naming the set and the fix.
 */
export async function loadEvalSet(source: EvalSetSource): Promise<{ path: string; instances: EvalInstance[] }> {
  const path = resolve(source.set);
  const lookup = repoLookup(source.repos, source.repoPaths.map((repo) => resolve(repo)));
  const instances = await readSetInstances(path, lookup, { flag: source.flag, set: source.set });
  if (instances.length === 0) throw new EngineError('usage', `${source.flag} ${source.set}: no valid instance in it`);
  if (instances.some((instance) => instance.userImage) && source.backend === 'docker') {
    const docker = dockerClient();
    await refuseMissingImages(instances, (ref) => imageExists(docker, ref));
  }
  return { path, instances };
}
