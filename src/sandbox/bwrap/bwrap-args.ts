import { REPO_DIR, SCRATCH_DIR } from '../sandbox.js';

/** The environment every command starts from; `ExecOptions.env` is laid over it. */
export const BASE_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HOME: '/root',
  LANG: 'C.UTF-8',
  TERM: 'dumb',
};

/** The fd on which the wrapper announces that the sandbox is up (see {@link bwrapArgs}). */
export const READY_FD = 3;
export const READY_BYTE = 'R';

export interface BwrapInvocation {
  /** Host directory mounted read-only as `/`. */
  rootfs: string;
  /** Host directory mounted read-write at {@link REPO_DIR}. */
  repoDir: string;
  /** Host directory mounted read-write at {@link SCRATCH_DIR}; a fresh tmpfs when absent. */
  scratchDir?: string;
  /** Absolute working directory inside the sandbox. */
  cwd: string;
  env: Record<string, string>;
  memoryMb: number;
  pids: number;
  command: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isValidEnvName(name: string): boolean {
  return ENV_NAME.test(name);
}

/**
 * The wrapper bash runs first inside the sandbox (`$1` = command, `$2` = cwd). It applies the
 * rlimits (bwrap has no option for them, and setting them here leaves bwrap itself unlimited),
 * tells the host the sandbox is up, merges stderr into stdout at the fd level (so interleaving is
 * exact), enters the working directory (a missing one is the command's failure, reported as
 * output, not a broken sandbox) and execs the command. The rlimits are the second line of
 * defence: the sandbox's cgroup (see sandbox-cgroup.ts) caps its processes, memory and cpu as a
 * whole where the host allows. Where it does not, memory is capped per process only (RLIMIT_AS)
 * and the process count not at all while the sandbox runs as the host's uid 0, which the kernel
 * exempts from RLIMIT_NPROC (`ulimit -u`).
 */
function wrapperScript(memoryMb: number, pids: number): string {
  return [
    `ulimit -v ${memoryMb * 1024} 2>/dev/null`,
    `ulimit -u ${pids} 2>/dev/null`,
    `printf ${READY_BYTE} >&${READY_FD}`,
    `exec ${READY_FD}>&-`,
    'exec 2>&1',
    'cd -- "$2" || exit 1',
    'exec bash -c "$1"',
  ].join('; ');
}

/**
 * The argv after `bwrap` for one command. Isolation: every namespace unshared (no network but an
 * unconfigured `lo`), all capabilities dropped, no nested user namespaces, a new session (no
 * terminal to inject input into), the sandbox dies with its parent, and killing bwrap's pid 1
 * tears down every process in the sandbox's pid namespace.
 */
export function bwrapArgs(invocation: BwrapInvocation): string[] {
  const env = { ...BASE_ENV, ...invocation.env };
  const size = String(invocation.memoryMb * 1024 * 1024);
  const args = [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--cap-drop', 'ALL',
    '--die-with-parent',
    '--new-session',
    '--hostname', 'sandbox',
    '--ro-bind', invocation.rootfs, '/',
    '--bind', invocation.repoDir, REPO_DIR,
    ...(invocation.scratchDir === undefined ? ['--tmpfs', SCRATCH_DIR] : ['--bind', invocation.scratchDir, SCRATCH_DIR]),
    // tmpfs is RAM that RLIMIT_AS does not cover (a memory cgroup does charge it): every
    // writable one is capped at the memory limit, and /dev itself (an unbounded tmpfs from
    // --dev) is made read-only.
    '--perms', '1777', '--size', size, '--tmpfs', '/tmp',
    '--perms', '0700', '--size', size, '--tmpfs', '/root',
    '--proc', '/proc',
    '--dev', '/dev',
    '--perms', '1777', '--size', size, '--tmpfs', '/dev/shm',
    '--remount-ro', '/dev',
    '--chdir', '/',
    '--clearenv',
  ];
  for (const [name, value] of Object.entries(env)) args.push('--setenv', name, value);
  args.push('--', 'bash', '-c', wrapperScript(invocation.memoryMb, invocation.pids), 'ssr-sandbox', invocation.command, invocation.cwd);
  return args;
}
