import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { ProgressSink } from '../util/progress.js';
import { LazyBwrapProvider } from './bwrap/lazy-bwrap-provider.js';
import { dockerClient } from './docker/docker-client.js';
import { DockerProvider, sweepOrphansOnce } from './docker/docker-provider.js';
import { pruneRepoImages } from './docker/prune-repo-images.js';
import { PooledProvider } from './pool/pooled-provider.js';
import { currentRepoImageTag, ensureRepoImage } from './docker/repo-image.js';
import type { EngineFleet } from './engines/engine-fleet.js';
import { LazyK8sProvider } from './k8s/lazy-k8s-provider.js';
import type { PruneResult } from './prune-result.js';
import { limitsOf } from './repo-limits.js';
import type { SandboxBackend, SandboxProvider, SandboxTemplate } from './sandbox.js';

/**
 * Build (idempotently) what sandboxes of `repo` start from on `backend`: a Docker image, a
 * bwrap template directory, or (k8s) the image as the cluster names it. Cheap when it already exists.
 */
export async function prepareTemplate(repo: ResolvedRepo, backend: SandboxBackend, progress: ProgressSink): Promise<SandboxTemplate> {
  // bubblewrap's and k8s's modules load only for their backend: a Docker run never needs them.
  if (backend === 'bwrap') return (await import('./bwrap/bwrap-template.js')).prepareBwrapTemplate(repo, progress);
  if (backend === 'k8s') return (await import('./k8s/k8s-template.js')).prepareK8sTemplate(repo, progress);
  // Once per process, before the first sandbox: started now, it overlaps the image check.
  void sweepOrphansOnce(dockerClient());
  const ref = await ensureRepoImage(dockerClient(), repo, progress);
  return { backend: 'docker', repoId: repo.id, ref, limits: limitsOf(repo) };
}

/**
 * The repo's Docker image on every engine of a fleet, the same image (id) everywhere: built on
 * one, streamed to the others (EngineFleet.ensureImage).
 */
export async function prepareFleetTemplate(repo: ResolvedRepo, fleet: EngineFleet, progress: ProgressSink): Promise<SandboxTemplate> {
  // image.base tags carry the user base's id: read it where the image is built (the first engine).
  const ref = await currentRepoImageTag(fleet.engines[0]!.docker, repo);
  await fleet.ensureImage(ref, (docker) => ensureRepoImage(docker, repo, progress), progress);
  return { backend: 'docker', repoId: repo.id, ref, limits: limitsOf(repo) };
}

/** Remove the repo's sandbox images (or bwrap templates) other than `template`, the current one. */
export async function pruneStaleTemplates(template: SandboxTemplate): Promise<PruneResult> {
  // The local images a k8s template was built from are Docker's; the cluster's copies are the registry's to prune.
  if (template.backend === 'k8s') return pruneRepoImages(dockerClient(), template.repoId, template.ref.slice(template.ref.lastIndexOf('/') + 1));
  if (template.backend !== 'bwrap') return pruneRepoImages(dockerClient(), template.repoId, template.ref);
  const [{ bwrapTemplatesDir }, { pruneBwrapTemplates }] = await Promise.all([import('./bwrap/bwrap-template.js'), import('./bwrap/prune-templates.js')]);
  return pruneBwrapTemplates(bwrapTemplatesDir(), template.repoId, template.ref);
}

/**
 * The provider that creates sandboxes of `backend`; with `warm` > 0 (`--warm N`) it keeps that
 * many started ahead of demand per template, and the caller must `dispose()` it when done.
 */
export function createProvider(backend: SandboxBackend, warm = 0): SandboxProvider {
  const provider = backend === 'bwrap' ? new LazyBwrapProvider() : backend === 'k8s' ? new LazyK8sProvider() : new DockerProvider();
  return warm > 0 ? new PooledProvider(provider, warm) : provider;
}
