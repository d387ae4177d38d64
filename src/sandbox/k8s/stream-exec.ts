import { PassThrough, Writable } from 'node:stream';
import type { V1Status } from '@kubernetes/client-node';
import { EngineError } from '../../util/engine-error.js';
import { decodeExecStatus } from './exec-status.js';
import type { K8sCluster } from './k8s-cluster.js';
import { k8sError } from './k8s-error.js';
import { SANDBOX_CONTAINER } from './pod-spec.js';

export interface StreamExecRequest {
  argv: readonly string[];
  /** Bytes of channel 1 (stdout) and 2 (stderr), in arrival order. */
  onOutput: (chunk: Buffer, channel: 'stdout' | 'stderr') => void;
  /**
   * Sent on channel 0. The stream is never closed: the v4 protocol can only close stdin by
   * closing the whole socket, which would lose the exit status, so the command must read exactly
   * this many bytes (`head -c N`).
   */
  stdin?: Buffer;
  /** Aborting closes the socket; the outcome is then `closed`. */
  signal?: AbortSignal;
}

/** How an exec's socket ended: with the command's exit code, or closed without a status. */
export type StreamExecOutcome = { status: 'exited'; exitCode: number } | { status: 'closed' };

/** The part of the client's WebSocket this module uses. */
interface ExecSocket {
  readyState: number;
  onclose: ((event: unknown) => void) | null;
  close(): void;
}

const CLOSED = 3;
const STDIN_CHUNK = 32 * 1024;

function sink(onChunk: (chunk: Buffer) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      onChunk(chunk);
      done();
    },
  });
}

/**
 * Run `argv` in the sandbox container of `podName` through the exec API (a websocket), passing
 * output on as it arrives. Throws an EngineError when the exec cannot start or the status says
 * the command never ran; a non-zero exit is an outcome.
 */
export async function streamExec(cluster: K8sCluster, podName: string, request: StreamExecRequest): Promise<StreamExecOutcome> {
  let status: V1Status | undefined;
  const stdin = request.stdin === undefined ? null : new PassThrough();
  let socket: ExecSocket;
  try {
    const opened: unknown = await cluster.exec.exec(
      cluster.namespace,
      podName,
      SANDBOX_CONTAINER,
      [...request.argv],
      sink((chunk) => request.onOutput(chunk, 'stdout')),
      sink((chunk) => request.onOutput(chunk, 'stderr')),
      stdin,
      false,
      (received) => {
        status = received;
      },
    );
    socket = opened as ExecSocket;
  } catch (error) {
    throw k8sError(cluster, `exec in pod ${podName}`, error);
  }
  const closed = new Promise<void>((resolve) => {
    socket.onclose = () => resolve();
    if (socket.readyState === CLOSED) resolve();
  });
  const abort = (): void => socket.close();
  request.signal?.addEventListener('abort', abort);
  if (request.signal?.aborted) abort();
  if (stdin !== null && request.stdin !== undefined) {
    // One websocket message per chunk, as kubectl sends them: a multi-MB frame is not one a proxy must take.
    for (let offset = 0; offset < request.stdin.length; offset += STDIN_CHUNK) stdin.write(request.stdin.subarray(offset, offset + STDIN_CHUNK));
  }
  try {
    await closed;
  } finally {
    request.signal?.removeEventListener('abort', abort);
    stdin?.destroy();
  }
  if (status === undefined) return { status: 'closed' };
  const outcome = decodeExecStatus(status);
  if (outcome.status === 'failed') throw new EngineError('sandbox-failed', `exec in pod ${podName}: ${outcome.message}`, { retryable: true });
  return outcome;
}
