import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { ProgressSink } from '../report/progress.js';
import { BwrapProvider } from './bwrap/bwrap-provider.js';
import { prepareBwrapTemplate } from './bwrap/bwrap-template.js';
import { dockerClient } from './docker/docker-client.js';
import { DockerProvider } from './docker/docker-provider.js';
import { ensureRepoImage } from './docker/repo-image.js';
import type { SandboxBackend, SandboxLimits, SandboxProvider, SandboxTemplate } from './sandbox.js';

/** The sandbox limits of a repo (repos.yaml names, in the contract's units). */
export function limitsOf(repo: ResolvedRepo): SandboxLimits {
  return { memoryMb: repo.limits.memory_mb, cpus: repo.limits.cpus, pids: repo.limits.pids };
}

/**
 * Build (idempotently) what sandboxes of `repo` start from on `backend`: a Docker image, or a
 * bwrap template directory. Cheap when it already exists.
 */
export async function prepareTemplate(repo: ResolvedRepo, backend: SandboxBackend, progress: ProgressSink): Promise<SandboxTemplate> {
  if (backend === 'bwrap') return prepareBwrapTemplate(repo, progress);
  const ref = await ensureRepoImage(dockerClient(), repo, progress);
  return { backend: 'docker', repoId: repo.id, ref, limits: limitsOf(repo) };
}

/** The provider that creates sandboxes of `backend`. */
export function createProvider(backend: SandboxBackend): SandboxProvider {
  return backend === 'bwrap' ? new BwrapProvider() : new DockerProvider();
}
