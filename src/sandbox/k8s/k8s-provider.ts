import { EngineError } from '../../util/engine-error.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox.js';
import { deletePod } from './delete-pod.js';
import { k8sCluster, type K8sCluster } from './k8s-cluster.js';
import { k8sError } from './k8s-error.js';
import { sandboxLabels, sandboxPodName } from './k8s-labels.js';
import { removeOrphanPods } from './k8s-orphan-sweep.js';
import { K8sSandbox } from './k8s-sandbox.js';
import { ensureDenyAllPolicy } from './network-policy.js';
import { sandboxPod } from './pod-spec.js';
import { waitForPod } from './wait-for-pod.js';

/** How long a pod may take to be scheduled, pull its image and start. */
export const POD_START_TIMEOUT_MS = 300_000;

/** Once per cluster and process: the deny-all policy in place and the orphans of dead runs gone. */
const readied = new WeakMap<K8sCluster, Promise<void>>();

function ready(cluster: K8sCluster): Promise<void> {
  let done = readied.get(cluster);
  if (done === undefined) {
    done = ensureDenyAllPolicy(cluster).then(async () => void (await removeOrphanPods(cluster)));
    // A failure is reported to this acquire and retried by the next.
    done.catch(() => readied.delete(cluster));
    readied.set(cluster, done);
  }
  return done;
}

/** Sandboxes as Kubernetes pods, one per acquire, in the cluster's namespace (see sandboxPod). */
export class K8sProvider implements SandboxProvider {
  readonly backend = 'k8s' as const;

  constructor(
    private readonly cluster: K8sCluster = k8sCluster(),
    private readonly startTimeoutMs = POD_START_TIMEOUT_MS,
  ) {}

  async acquire(template: SandboxTemplate): Promise<Sandbox> {
    if (template.backend !== 'k8s') throw new EngineError('usage', `K8sProvider cannot use a ${template.backend} template`);
    const { cluster } = this;
    await ready(cluster);
    const name = sandboxPodName(template.repoId);
    try {
      await cluster.core.createNamespacedPod({ namespace: cluster.namespace, body: sandboxPod({ name, template, labels: sandboxLabels(template.repoId) }) });
    } catch (error) {
      throw k8sError(cluster, `create pod ${name} from ${template.ref} in namespace ${cluster.namespace}`, error);
    }
    try {
      await waitForPod(cluster, name, this.startTimeoutMs);
    } catch (error) {
      await deletePod(cluster, name).catch(() => undefined);
      throw error;
    }
    return new K8sSandbox(cluster, name);
  }
}
