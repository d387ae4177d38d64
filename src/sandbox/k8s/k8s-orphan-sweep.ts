import { isProcessAlive } from '../../util/process-alive.js';
import type { K8sCluster } from './k8s-cluster.js';
import { K8S_LABELS, labelSelector, ownerLabels } from './k8s-labels.js';

/**
 * Delete the sandbox pods of the namespace left by processes of this host that died without
 * disposing them (a crashed run, a killed test worker). Pods of other hosts are left alone:
 * their pids mean nothing here. Best effort; never throws. Returns the names deleted.
 */
export async function removeOrphanPods(cluster: K8sCluster): Promise<string[]> {
  const host = ownerLabels()[K8S_LABELS.ownerHost]!;
  try {
    const list = await cluster.core.listNamespacedPod({ namespace: cluster.namespace, labelSelector: labelSelector({ [K8S_LABELS.ownerHost]: host }) });
    const orphans = list.items
      .filter((pod) => !isProcessAlive(Number(pod.metadata?.labels?.[K8S_LABELS.ownerPid])))
      .map((pod) => pod.metadata?.name)
      .filter((name): name is string => name !== undefined);
    await Promise.all(
      orphans.map((name) => cluster.core.deleteNamespacedPod({ name, namespace: cluster.namespace, gracePeriodSeconds: 0 }).catch(() => undefined)),
    );
    return orphans;
  } catch {
    return [];
  }
}
