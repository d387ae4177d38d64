import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { ExecResult } from '../sandbox.js';
import { EXEC_GRACE_MS, EXEC_MARKER, EXEC_WRAPPER, EXIT_KILLED, type WrappedExecRequest } from '../exec-scripts.js';
import { OutputCap } from '../output-cap.js';
import { dockerError } from './docker-client.js';
import { FrameDemuxer } from './frame-demuxer.js';
import { killByMarker } from './kill-sweep.js';

/** How long the host sweep may take before the stream is cut and the exec reported anyway. */
const SWEEP_BUDGET_MS = 3000;

/**
 * The exit code once the daemon has reaped the process, or 'running' at the deadline. Usually the
 * first inspect answers; a command that closed its stdout and stderr but runs on ends the stream early.
 */
async function waitForExit(exec: Docker.Exec, deadline: number): Promise<number | null | 'running'> {
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    const info = await exec.inspect();
    if (!info.Running) return info.ExitCode ?? null;
    if (Date.now() >= deadline) return 'running';
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Run one command in a running container: output of stdout and stderr interleaved into one
 * capped buffer, and a timeout that kills the command's whole process tree
 * (in-container `timeout`, then a host-driven sweep of everything carrying the exec's marker).
 */
export async function runDockerExec(container: Docker.Container, request: WrappedExecRequest): Promise<ExecResult> {
  const started = Date.now();
  const marker = randomUUID();
  const env = [...Object.entries(request.env).map(([key, value]) => `${key}=${value}`), `${EXEC_MARKER}=${marker}`];
  const seconds = (request.timeoutMs / 1000).toFixed(3);
  let exec: Docker.Exec;
  let stream: Duplex;
  try {
    exec = await container.exec({
      Cmd: ['bash', '-c', EXEC_WRAPPER, 'ssr-exec', request.cwd, seconds, request.command],
      Env: env,
      AttachStdin: false,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    stream = (await exec.start({ hijack: true, stdin: false })) as Duplex;
  } catch (error) {
    throw dockerError(`exec in sandbox ${container.id.slice(0, 12)}`, error);
  }
  const cap = new OutputCap(request.maxOutputBytes);
  const demuxer = new FrameDemuxer((bytes) => cap.push(bytes));
  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => demuxer.push(chunk));
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', (error) => (timedOut ? resolve() : reject(error)));
    timers.push(
      setTimeout(() => {
        timedOut = true;
        timers.push(
          setTimeout(() => {
            void killByMarker(container, marker, SWEEP_BUDGET_MS).then(() => stream.destroy());
          }, EXEC_GRACE_MS),
        );
      }, Math.max(0, request.timeoutMs - (Date.now() - started))),
    );
  });
  try {
    await finished;
  } catch (error) {
    throw dockerError('reading exec output', error);
  } finally {
    for (const timer of timers) clearTimeout(timer);
    stream.destroy();
  }
  // The exit code costs an inspect request of its own; a caller that reads only the output skips it.
  const exit = timedOut || request.skipExitCode
    ? null
    : await waitForExit(exec, started + request.timeoutMs).catch((error: unknown) => Promise.reject(dockerError('exec inspect', error)));
  let exitCode = exit === 'running' ? null : exit;
  const atDeadline = Date.now() - started >= request.timeoutMs;
  // The in-container timeout can fire a hair before the host timer: SIGKILL at the deadline is a
  // timeout. Without the code, a stream that ended at the deadline is one.
  if (exit === 'running' || (atDeadline && (exitCode === EXIT_KILLED || request.skipExitCode))) timedOut = true;
  if (timedOut) {
    exitCode = null;
    // Whatever escaped the process group (daemons that closed stdout) must not outlive a timeout.
    await killByMarker(container, marker, SWEEP_BUDGET_MS);
  }
  return { exitCode, output: cap.text(), timedOut, durationMs: Date.now() - started, droppedBytes: cap.droppedBytes };
}
