/**
 * The sandbox contract. Everything a model, an artifact or a test script writes runs inside one;
 * the host only copies bytes in and out. Inside every sandbox the repository lives at
 * {@link REPO_DIR} (the default working directory) and {@link SCRATCH_DIR} is a writable scratch
 * folder outside the repository for scripts, patches and logs. What a command writes there, in
 * /tmp or in $HOME is still there for the sandbox's next command, and nowhere else. Every backend
 * passes the same checks: test/integration/sandbox-contract/.
 */
export const REPO_DIR = '/repo';
export const SCRATCH_DIR = '/ssr';
/**
 * The unprivileged user a guarded test run's script runs as where the driver is root (Debian's
 * `nobody`; harness/test-material.ts). ssr's repo images give it {@link REPO_DIR} at build time, so
 * that no run has to change the owner of every file in a fresh sandbox (repo-image.ts).
 */
export const TEST_USER_UID = 65534;

export type SandboxBackend = 'docker' | 'bwrap' | 'k8s';

export interface ExecOptions {
  /** Kill the whole process tree after this many ms (default 120 000). */
  timeoutMs?: number;
  /** Working directory inside the sandbox (default {@link REPO_DIR}). */
  cwd?: string;
  env?: Record<string, string>;
  /** Cap on captured output; head and tail are kept (default 1 MiB). */
  maxOutputBytes?: number;
  /** Bytes fed to the command's stdin. */
  stdin?: string | Buffer;
  /**
   * The caller reads only what the command printed, never its exit code: a backend that needs a
   * request of its own to learn the code (Docker's exec inspect) skips it and reports null.
   * Backends that learn it for free still report it. Timeouts are reported either way.
   */
  skipExitCode?: boolean;
}

export interface ExecResult {
  /** Exit code of the command; null when it was killed (timeout, or the sandbox disposed under it), or not asked for (`skipExitCode`). */
  exitCode: number | null;
  /** stdout and stderr interleaved as they arrived, decoded as UTF-8 with bad bytes replaced. */
  output: string;
  timedOut: boolean;
  durationMs: number;
  /** Bytes dropped from the middle of the output by the cap (0 when nothing was dropped). */
  droppedBytes: number;
}

/** Resource limits applied to every sandbox of a repo. */
export interface SandboxLimits {
  memoryMb: number;
  cpus: number;
  pids: number;
}

/** One isolated copy of a repo. Not safe to share between episodes; dispose when done. */
export interface Sandbox {
  readonly id: string;
  readonly backend: SandboxBackend;
  /** Run `command` with bash (`bash -c`) inside the sandbox. Never throws for a failing command. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Read a file (absolute, or relative to {@link REPO_DIR}). Throws EngineError if missing. */
  readFile(path: string): Promise<Buffer>;
  /** Write a file (absolute, or relative to {@link REPO_DIR}); parents are created. */
  writeFile(path: string, content: string | Buffer, options?: { mode?: number }): Promise<void>;
  /**
   * How many processes the engine's memory cgroup has killed for memory in this sandbox so far,
   * as the kernel counts them on the host; null when the backend cannot tell. The only evidence
   * of an OOM kill that counts: an exit status of 137 is just as easily a process's own `kill -9`.
   */
  oomKills?(): Promise<number | null>;
  /** Destroy the sandbox and everything in it. Idempotent. */
  dispose(): Promise<void>;
}

/** A prepared, reusable template from which sandboxes of one repo are created cheaply. */
export interface SandboxTemplate {
  readonly backend: SandboxBackend;
  readonly repoId: string;
  /** Docker image tag (on k8s: the image reference the cluster pulls), or the bwrap template directory. */
  readonly ref: string;
  readonly limits: SandboxLimits;
  /** The image's configured user (`uid[:gid]`) when known and not root; k8s runs pods as it (runAsNonRoot). */
  readonly user?: string;
}

export interface SandboxProvider {
  readonly backend: SandboxBackend;
  /** Create and start a fresh sandbox from a template (never one handed out before). */
  acquire(template: SandboxTemplate): Promise<Sandbox>;
  /**
   * Remove what the provider started ahead of demand (a warm pool's sandboxes); sandboxes already
   * handed out stay their holders' to dispose. Later acquires are refused. Idempotent; providers
   * that start nothing ahead leave it out.
   */
  dispose?(): Promise<void>;
}
