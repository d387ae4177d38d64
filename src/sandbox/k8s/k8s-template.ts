import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { ProgressSink } from '../../util/progress.js';
import { dockerClient } from '../docker/docker-client.js';
import { ensureRepoImage, repoImageTag } from '../docker/repo-image.js';
import { limitsOf } from '../repo-limits.js';
import type { SandboxTemplate } from '../sandbox.js';
import { k8sCluster, type K8sCluster } from './k8s-cluster.js';

const PING_TIMEOUT_MS = 3000;

/** The reference the cluster pulls for a local tag: under `--k8s-registry` when given, else the bare tag (kind load). */
export function clusterImageRef(localTag: string, registry: string | undefined): string {
  return registry === undefined ? localTag : `${registry}/${localTag}`;
}

async function localDockerAnswers(): Promise<boolean> {
  const ping = dockerClient().ping().then(() => true, () => false);
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), PING_TIMEOUT_MS).unref());
  return Promise.race([ping, timeout]);
}

/**
 * What k8s sandboxes of `repo` start from: the repo image as the cluster names it. Where a local
 * Docker engine answers, the image is built here (idempotent, as for `--sandbox docker`), its
 * configured user read (a non-root numeric one makes the pods run as it), and the push is spelled
 * out; without one, the cluster must already have the image (built and pushed elsewhere).
 */
export async function prepareK8sTemplate(repo: ResolvedRepo, progress: ProgressSink, cluster: K8sCluster = k8sCluster()): Promise<SandboxTemplate> {
  const local = repoImageTag(repo);
  const ref = clusterImageRef(local, cluster.registry);
  let user: string | undefined;
  if (await localDockerAnswers()) {
    await ensureRepoImage(dockerClient(), repo, progress);
    user = (await dockerClient().getImage(local).inspect()).Config?.User || undefined;
    const push = ref === local ? `kind load docker-image ${local}` : `docker tag ${local} ${ref} && docker push ${ref}`;
    progress({ stage: 'k8s', message: `${local} is built here; the cluster must have ${ref} (e.g. ${push})` });
  } else {
    progress({ stage: 'k8s', message: `no local Docker engine: the cluster must already have ${ref}` });
  }
  return { backend: 'k8s', repoId: repo.id, ref, limits: limitsOf(repo), ...(user === undefined ? {} : { user }) };
}
