import { SWEEP_SCRIPT } from '../exec-scripts.js';
import type { K8sCluster } from './k8s-cluster.js';
import { streamExec } from './stream-exec.js';

/**
 * Kill every process of the pod that carries the exec's marker (the shared sweep script, run by
 * a second exec); wait for it at most `budgetMs`. Never throws: the pod may be gone or out of pids.
 */
export async function killByMarkerInPod(cluster: K8sCluster, podName: string, marker: string, budgetMs: number): Promise<boolean> {
  const controller = new AbortController();
  const attempt = streamExec(cluster, podName, { argv: ['bash', '-c', SWEEP_SCRIPT, 'ssr-sweep', marker], onOutput: () => undefined, signal: controller.signal }).then(
    (outcome) => outcome.status === 'exited' && outcome.exitCode === 0,
    () => false,
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(false);
    }, budgetMs);
  });
  try {
    return await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
