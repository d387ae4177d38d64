import { EngineError, errorMessage } from '../util/engine-error.js';
import { dockerClient } from './docker/docker-client.js';
import type { SandboxBackend } from './sandbox.js';

/** Outcome of looking for a usable backend. */
export type BackendProbe = { status: 'ok'; detail: string } | { status: 'unavailable'; reason: string };

const PROBE_TIMEOUT_MS = 3000;

export const DOCKER_HINT = 'start the Docker engine: scripts/setup-host (or dockerd --iptables=false --bridge=none)';
export const BWRAP_HINT = 'install bubblewrap: apt-get install bubblewrap';

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms).unref()),
  ]);
}

/** Is a Docker engine reachable? (its version, with a short timeout: one request, which a ping before it only repeated) */
export async function probeDockerBackend(): Promise<BackendProbe> {
  try {
    const docker = dockerClient();
    const version = await withTimeout(docker.version(), PROBE_TIMEOUT_MS, 'the Docker engine');
    return { status: 'ok', detail: `Docker engine ${version.Version}` };
  } catch (error) {
    return { status: 'unavailable', reason: errorMessage(error) };
  }
}

/** Does bubblewrap run here, with the namespaces a sandbox needs? (fails where user namespaces are off) */
export async function probeBwrapBackend(): Promise<BackendProbe> {
  try {
    // Loaded here: a run that finds its Docker engine never probes bubblewrap.
    const { probeBwrap } = await import('./bwrap/bwrap-probe.js');
    await probeBwrap();
    return { status: 'ok', detail: 'bubblewrap can create sandboxes' };
  } catch (error) {
    return { status: 'unavailable', reason: errorMessage(error) };
  }
}

/**
 * The backend to use for `--sandbox <choice>`. `auto` prefers a reachable Docker engine, then a
 * working bubblewrap; Kubernetes is used only when asked for (`k8s`: the cluster of
 * `configureK8s`, checked at once: reachable, permitted, namespace present). An explicit choice
 * that does not work is an error, never a silent fallback.
 */
export async function selectBackend(choice: SandboxBackend | 'auto'): Promise<SandboxBackend> {
  if (choice === 'k8s') {
    // Loaded only here: the Kubernetes client costs a second of start-up a Docker run never needs.
    const [{ k8sCluster }, { preflightK8s }] = await Promise.all([import('./k8s/k8s-cluster.js'), import('./k8s/k8s-preflight.js')]);
    await preflightK8s(k8sCluster());
    return 'k8s';
  }
  const docker = choice === 'bwrap' ? undefined : await probeDockerBackend();
  if (docker?.status === 'ok') return 'docker';
  if (choice === 'docker' && docker?.status === 'unavailable') {
    throw new EngineError('docker-unavailable', `--sandbox docker: ${docker.reason}; ${DOCKER_HINT}`, { retryable: true });
  }
  const bwrap = await probeBwrapBackend();
  if (bwrap.status === 'ok') return 'bwrap';
  if (choice === 'bwrap') throw new EngineError('bwrap-unavailable', `--sandbox bwrap: ${bwrap.reason}`);
  const dockerReason = docker?.status === 'unavailable' ? docker.reason : 'not tried';
  throw new EngineError(
    'sandbox-unavailable',
    `no sandbox backend is usable (Docker: ${dockerReason}; bubblewrap: ${bwrap.reason}). Either ${DOCKER_HINT}, or ${BWRAP_HINT}`,
  );
}
