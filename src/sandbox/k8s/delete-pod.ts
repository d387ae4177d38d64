import { setTimeout as sleep } from 'node:timers/promises';
import { EngineError } from '../../util/engine-error.js';
import type { K8sCluster } from './k8s-cluster.js';
import { k8sError, k8sStatus } from './k8s-error.js';

/** How long a deleted pod may stay listed before dispose gives up (the API removes it at once with grace 0). */
const GONE_TIMEOUT_MS = 60_000;

/** Delete a pod now (grace 0) and wait until the API no longer has it. A pod already gone is fine. */
export async function deletePod(cluster: K8sCluster, name: string): Promise<void> {
  const { namespace } = cluster;
  try {
    await cluster.core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 });
  } catch (error) {
    if (k8sStatus(error) === 404) return;
    throw k8sError(cluster, `delete pod ${name}`, error);
  }
  const deadline = Date.now() + GONE_TIMEOUT_MS;
  for (let delay = 50; Date.now() < deadline; delay = Math.min(delay * 2, 1000)) {
    try {
      await cluster.core.readNamespacedPod({ name, namespace });
    } catch (error) {
      if (k8sStatus(error) === 404) return;
      throw k8sError(cluster, `read pod ${name}`, error);
    }
    await sleep(delay);
  }
  throw new EngineError('sandbox-failed', `pod ${name} in namespace ${namespace} was still there ${GONE_TIMEOUT_MS / 1000} s after its deletion`, { retryable: true });
}
