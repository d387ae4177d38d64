import { setTimeout as sleep } from 'node:timers/promises';
import type { V1Pod } from '@kubernetes/client-node';
import { EngineError } from '../../util/engine-error.js';
import type { K8sCluster } from './k8s-cluster.js';
import { k8sError } from './k8s-error.js';

/** Waiting reasons that mean the image will not come: retrying does not help, the user must act. */
const IMAGE_FAILURES = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);
/** Waiting reasons that mean the container cannot be created from this spec. */
const CREATE_FAILURES = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError']);

/** Where a pod stands on its way to a running sandbox. */
export type PodProgress = { status: 'running' } | { status: 'waiting'; detail: string } | { status: 'failed'; error: EngineError };

/** Read a pod's status as the backend needs it (pure: the unit tests feed it API objects). */
export function podProgress(pod: V1Pod): PodProgress {
  const image = pod.spec?.containers[0]?.image ?? 'the image';
  const container = pod.status?.containerStatuses?.[0];
  const waiting = container?.state?.waiting;
  if (waiting?.reason !== undefined && IMAGE_FAILURES.has(waiting.reason)) {
    const message = `the cluster cannot pull image ${image} (${waiting.reason}: ${waiting.message ?? 'no message'}); push it to a registry the cluster pulls from and pass --k8s-registry, or load it into a kind cluster (kind load docker-image ${image}); see docs/kubernetes.md`;
    return { status: 'failed', error: new EngineError('sandbox-unavailable', message) };
  }
  if (waiting?.reason !== undefined && CREATE_FAILURES.has(waiting.reason)) {
    return { status: 'failed', error: new EngineError('sandbox-failed', `the sandbox container of ${image} cannot start (${waiting.reason}: ${waiting.message ?? 'no message'})`, { retryable: true }) };
  }
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded' || container?.state?.terminated !== undefined) {
    const terminated = container?.state?.terminated;
    const why = terminated ? `${terminated.reason ?? 'terminated'}, exit ${terminated.exitCode}` : (pod.status?.reason ?? phase);
    return { status: 'failed', error: new EngineError('sandbox-failed', `the sandbox pod of ${image} stopped before use (${why})`, { retryable: true }) };
  }
  if (phase === 'Running' && container?.state?.running !== undefined) return { status: 'running' };
  const unscheduled = pod.status?.conditions?.find((condition) => condition.type === 'PodScheduled' && condition.status === 'False');
  const detail = unscheduled ? `unschedulable: ${unscheduled.message ?? unscheduled.reason ?? ''}` : (waiting?.reason ?? phase ?? 'pending');
  return { status: 'waiting', detail };
}

/**
 * Poll the pod until its container runs; fail at once on a pull or create failure, and after
 * `timeoutMs` on a pod still pending (no node has room, or a quota) with the last reason.
 */
export async function waitForPod(cluster: K8sCluster, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let detail = 'pending';
  for (let delay = 100; Date.now() < deadline; delay = Math.min(delay * 2, 1000)) {
    let pod: V1Pod;
    try {
      pod = await cluster.core.readNamespacedPod({ name, namespace: cluster.namespace });
    } catch (error) {
      throw k8sError(cluster, `read pod ${name}`, error);
    }
    const progress = podProgress(pod);
    if (progress.status === 'running') return;
    if (progress.status === 'failed') throw progress.error;
    detail = progress.detail;
    await sleep(delay);
  }
  throw new EngineError('sandbox-failed', `pod ${name} in namespace ${cluster.namespace} did not start within ${Math.round(timeoutMs / 1000)} s (${detail}); check the namespace's quota and the nodes' free CPU and memory`, { retryable: true });
}
