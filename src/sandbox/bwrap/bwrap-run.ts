import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { EngineError, errorMessage } from '../../util/engine-error.js';
import { DEFAULT_MAX_OUTPUT_BYTES, OutputCap } from '../output-cap.js';
import type { ExecResult } from '../sandbox.js';
import { READY_BYTE, READY_FD } from './bwrap-args.js';
import { joinCgroupsArgv } from './cgroup-join.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
/** After the sandbox died, how long its pipes may take to drain before we stop waiting. */
const DRAIN_GRACE_MS = 2_000;
export const INSTALL_HINT = 'install bubblewrap: apt-get install bubblewrap';

export interface RunBwrapOptions {
  timeoutMs?: number;
  maxOutputBytes?: number;
  stdin?: string | Buffer;
  /** `cgroup.procs` files bwrap enters before it starts, so that every sandbox process is inside. */
  cgroupProcs?: readonly string[];
}

/** A running bwrap whose whole sandbox can be killed from outside (dispose, timeout). */
export interface BwrapHandle {
  readonly result: Promise<ExecResult>;
  /** SIGKILL the sandbox; returns false when it had already exited. */
  kill(): boolean;
}

/** bwrap died before the command started: missing namespaces are the host's fault, the rest ours. */
function setupError(message: string): EngineError {
  // bwrap started through the cgroup-joining shell: a missing one is the shell's "not found".
  if (/exec: bwrap: not found/.test(message)) return new EngineError('bwrap-unavailable', `cannot run bwrap: ${INSTALL_HINT}`);
  if (message.includes('ssr: cannot join cgroup')) return new EngineError('sandbox-failed', `bwrap could not enter the sandbox's cgroup: ${message}`);
  if (/namespace|uid map|Operation not permitted|No permissions/i.test(message)) {
    return new EngineError('bwrap-unavailable', `bwrap cannot create a sandbox here: ${message} (${INSTALL_HINT}; user namespaces must be enabled)`);
  }
  return new EngineError('sandbox-failed', `bwrap could not set up the sandbox: ${message}`);
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // bwrap leads its own process group (detached; the cgroup-joining shell execs it, keeping
    // its pid); its pid 1 is in that group, and when the pid namespace's init dies the kernel
    // kills every process left in the namespace.
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Start `bwrap <args>` (built by `bwrapArgs`), inside `options.cgroupProcs` when given, and
 * collect its merged output through the shared head+tail cap. Never rejects for a failing
 * command; rejects with an EngineError when bwrap cannot start, cannot enter its cgroups, or dies
 * before the sandbox is up (the wrapper's ready byte never arrived).
 */
export function startBwrap(args: readonly string[], options: RunBwrapOptions = {}): BwrapHandle {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cap = new OutputCap(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  const started = Date.now();
  const cgroups = options.cgroupProcs ?? [];
  const [file, argv] = cgroups.length > 0 ? joinCgroupsArgv(cgroups, ['bwrap', ...args]) : ['bwrap', [...args]];
  const child = spawn(file, argv, {
    cwd: '/',
    detached: true,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', 'pipe'],
  });
  let killed = false;
  let timedOut = false;
  /** Whether this call killed it (false once it has exited by itself). */
  const kill = (): boolean => {
    if (killed || child.exitCode !== null || child.signalCode !== null) return false;
    killed = true;
    killGroup(child.pid);
    return true;
  };

  const result = new Promise<ExecResult>((resolve, reject) => {
    let ready = false;
    let exited = false;
    const ready$ = child.stdio[READY_FD] as Readable;
    ready$.on('data', (chunk: Buffer) => {
      if (chunk.includes(READY_BYTE)) ready = true;
    });
    ready$.on('error', () => undefined);
    const collect = (chunk: Buffer): void => cap.push(chunk);
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    if (options.stdin !== undefined && child.stdin) {
      // The command may exit without reading its stdin: EPIPE is its business, not ours.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin);
    }
    const timer = setTimeout(() => {
      timedOut = kill();
    }, timeoutMs);
    let drainTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const finish = (code: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      if (!ready && !killed) {
        reject(setupError(cap.text().trim() || `bwrap exited with ${code}`));
        return;
      }
      resolve({
        exitCode: killed ? null : code,
        output: cap.text(),
        timedOut,
        durationMs: Date.now() - started,
        droppedBytes: cap.droppedBytes,
      });
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const hint = error.code === 'ENOENT' ? INSTALL_HINT : errorMessage(error);
      reject(new EngineError('bwrap-unavailable', `cannot run bwrap: ${hint}`, { cause: error }));
    });
    child.on('exit', (code) => {
      exited = true;
      // Nothing can hold the pipes once the namespace is gone, but never hang on a stray fd.
      drainTimer = setTimeout(() => {
        for (const stream of child.stdio) stream?.destroy();
        finish(code);
      }, DRAIN_GRACE_MS);
    });
    child.on('close', (code) => {
      if (exited) finish(code);
    });
  });
  return { result, kill };
}
