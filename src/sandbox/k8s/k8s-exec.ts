import { randomUUID } from 'node:crypto';
import { EXEC_GRACE_MS, EXEC_MARKER, EXEC_WRAPPER, EXIT_KILLED, type WrappedExecRequest } from '../exec-scripts.js';
import { OutputCap } from '../output-cap.js';
import type { ExecResult } from '../sandbox.js';
import type { K8sCluster } from './k8s-cluster.js';
import { killByMarkerInPod } from './k8s-sweep.js';
import { streamExec } from './stream-exec.js';

/** How long the sweep may take before the socket is cut and the exec reported anyway. */
const SWEEP_BUDGET_MS = 5000;

/** An exec's result; `lost` when the socket closed with no exit status and no timeout (the pod went away). */
export interface K8sExecOutcome {
  result: ExecResult;
  lost: boolean;
}

/**
 * The exec's argv. The exec API takes no environment, so `env` sets it (names are checked shell
 * identifiers; values travel as argv, never through a shell), with the marker the sweep looks for.
 */
export function execArgv(request: WrappedExecRequest, marker: string): string[] {
  const env = [...Object.entries(request.env).map(([key, value]) => `${key}=${value}`), `${EXEC_MARKER}=${marker}`];
  const seconds = (request.timeoutMs / 1000).toFixed(3);
  return ['env', ...env, 'bash', '-c', EXEC_WRAPPER, 'ssr-exec', request.cwd, seconds, request.command];
}

/**
 * Run one command in a sandbox pod: stdout and stderr interleaved into one capped buffer, and a
 * timeout that kills the command's whole process tree (the in-pod `timeout` on its process group,
 * then a sweep of everything carrying the exec's marker), as the Docker backend does.
 */
export async function runK8sExec(cluster: K8sCluster, podName: string, request: WrappedExecRequest): Promise<K8sExecOutcome> {
  const started = Date.now();
  const marker = randomUUID();
  const cap = new OutputCap(request.maxOutputBytes);
  const controller = new AbortController();
  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  timers.push(
    setTimeout(() => {
      timedOut = true;
      timers.push(setTimeout(() => void killByMarkerInPod(cluster, podName, marker, SWEEP_BUDGET_MS).then(() => controller.abort()), EXEC_GRACE_MS));
    }, request.timeoutMs),
  );
  let outcome: Awaited<ReturnType<typeof streamExec>>;
  try {
    outcome = await streamExec(cluster, podName, { argv: execArgv(request, marker), onOutput: (chunk) => cap.push(chunk), signal: controller.signal });
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
  let exitCode = outcome.status === 'exited' ? outcome.exitCode : null;
  // The in-pod timeout can fire a hair before the host timer: SIGKILL at the deadline is a timeout.
  if (exitCode === EXIT_KILLED && Date.now() - started >= request.timeoutMs) timedOut = true;
  if (timedOut) {
    exitCode = null;
    // Whatever escaped the process group (daemons that closed stdout) must not outlive a timeout.
    await killByMarkerInPod(cluster, podName, marker, SWEEP_BUDGET_MS);
  }
  const result = { exitCode, output: cap.text(), timedOut, durationMs: Date.now() - started, droppedBytes: cap.droppedBytes };
  return { result, lost: outcome.status === 'closed' && !timedOut };
}
