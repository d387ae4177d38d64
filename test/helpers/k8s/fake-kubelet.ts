import { spawn, type ChildProcess } from 'node:child_process';
import type { ServerSocket } from 'ws';

/** One exec the fake API server received: the pod, the argv and every stdin byte (channel 0). */
export interface ExecCall {
  pod: string;
  command: string[];
  protocol: string;
  stdin: Buffer[];
}

/** The Status object an API server sends on channel 3 when the command exits (v4 protocol). */
export function exitStatus(exitCode: number, command: readonly string[]): object {
  if (exitCode === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}

const SIGNALS: Record<string, number> = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2, SIGHUP: 1 };

/** A frame: the channel byte, then the payload. */
export function frame(channel: number, payload: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from([channel]), Buffer.from(payload)]);
}

/**
 * Plays the kubelet for one exec: runs the argv as a real process on this host (the "container"),
 * channel 0 into its stdin, its stdout and stderr out on channels 1 and 2, and its exit as the
 * v4 Status on channel 3, then closes. Returns the process so the pod can kill it on delete.
 */
export function runExec(socket: ServerSocket, call: ExecCall): ChildProcess {
  const [file, ...args] = call.command;
  const child = spawn(file!, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  socket.on('message', (data) => {
    if (data[0] === 0) {
      const bytes = data.subarray(1);
      call.stdin.push(Buffer.from(bytes));
      child.stdin?.write(bytes);
    }
  });
  child.stdin?.on('error', () => undefined);
  child.stdout?.on('data', (chunk: Buffer) => socket.send(frame(1, chunk)));
  child.stderr?.on('data', (chunk: Buffer) => socket.send(frame(2, chunk)));
  child.on('error', (error) => {
    socket.send(frame(3, JSON.stringify({ metadata: {}, status: 'Failure', message: `exec failed: ${error.message}`, reason: 'InternalError' })));
    socket.close();
  });
  child.on('close', (code, signal) => {
    const exitCode = code ?? 128 + (SIGNALS[signal ?? ''] ?? 0);
    socket.send(frame(3, JSON.stringify(exitStatus(exitCode, call.command))));
    socket.close();
  });
  return child;
}
