import { REPO_DIR, SCRATCH_DIR } from '../sandbox.js';

/** Where commands find their temporary files and their home; both persist between the commands of one sandbox. */
export const TMP_DIR = '/tmp';
export const HOME_DIR = '/root';

/** The environment every command starts from; `ExecOptions.env` is laid over it. */
export const BASE_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HOME: HOME_DIR,
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
  /** Host directory mounted read-write at {@link TMP_DIR}; a fresh tmpfs when absent. */
  tmpDir?: string;
  /** Host directory mounted read-write at {@link HOME_DIR}; a fresh tmpfs when absent. */
  homeDir?: string;
  /** Absolute working directory inside the sandbox. */
  cwd: string;
  env: Record<string, string>;
  memoryMb: number;
  pids: number;
  command: string;
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
 * The argv after `bwrap` for one command. Isolation: every namespace unshared (no network but
 * `lo`, which bwrap brings up; `localhost` resolves through the rootfs's /etc/hosts, see
 * rootfs-hosts.ts), all capabilities dropped, no nested user namespaces, a new session (no
 * terminal to inject input into), the sandbox dies with its parent, and killing bwrap's pid 1
 * tears down every process in the sandbox's pid namespace.
 */
export function bwrapArgs(invocation: BwrapInvocation): string[] {
  const env = { ...BASE_ENV, ...invocation.env };
  const size = String(invocation.memoryMb * 1024 * 1024);
  // tmpfs is RAM that RLIMIT_AS does not cover (a memory cgroup does charge it): every writable
  // one is capped at the memory limit. A sandbox's own directories are bound instead, so what a
  // command leaves there is still there for the next command of the same sandbox.
  const privateDir = (hostDir: string | undefined, target: string, perms: string): string[] =>
    hostDir === undefined ? ['--perms', perms, '--size', size, '--tmpfs', target] : ['--bind', hostDir, target];
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
    ...privateDir(invocation.scratchDir, SCRATCH_DIR, '1777'),
    ...privateDir(invocation.tmpDir, TMP_DIR, '1777'),
    ...privateDir(invocation.homeDir, HOME_DIR, '0700'),
    '--proc', '/proc',
    // /dev itself (an unbounded tmpfs from --dev) is made read-only; /dev/shm is per command.
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
