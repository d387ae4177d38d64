/**
 * The in-sandbox shell programs every exec-based backend (Docker, Kubernetes) wraps a command in.
 * Shared so that a timeout, a missing cwd and a sweep mean the same on each.
 */

/**
 * PID 1 of every sandbox: `sleep` with SIGCHLD ignored (the ignore survives exec), so the kernel
 * reaps orphans at once and a killed fork bomb leaves no zombies eating the pids limit. An init
 * such as Docker's `--init` would reap too, but its child would then be the one process a
 * `kill -9 -1` cannot spare; PID 1 itself is immune to signals sent from inside its namespace.
 */
export const SANDBOX_INIT = ['bash', '-c', 'trap "" CHLD; exec sleep infinity'];

/** Environment variable carrying an exec's id into every process it starts. */
export const EXEC_MARKER = 'SSR_EXEC';

/**
 * `bash -c EXEC_WRAPPER ssr-exec <cwd> <seconds> <command>`. `cd` first so a missing cwd is an
 * ordinary failed command; `timeout` then puts the command in its own process group and SIGKILLs
 * that whole group at the deadline. stderr joins stdout in the sandbox: two pipes read by the
 * engine would reorder lines written close together.
 */
export const EXEC_WRAPPER = 'cd -- "$1" || exit 1; exec timeout -s KILL "$2" bash -c "$3" 2>&1';

/**
 * `bash -c SWEEP_SCRIPT ssr-sweep <marker>`: kills, repeatedly until none is left, every process
 * whose environment carries the exec's marker: that reaches what escaped the in-sandbox `timeout`
 * (setsid, daemons, double forks) and spares other execs of the same sandbox. Fork bombs converge
 * because a SIGKILLed process cannot fork. Exits 0 once nothing is left.
 */
export const SWEEP_SCRIPT = `for _ in $(seq 1 50); do
  pids=$(grep -lsxzF "${EXEC_MARKER}=$1" /proc/[0-9]*/environ | cut -d/ -f3)
  [ -z "$pids" ] && exit 0
  kill -9 $pids 2>/dev/null
  sleep 0.02
done
exit 1`;

/** One command for an exec-based backend to wrap in {@link EXEC_WRAPPER}. */
export interface WrappedExecRequest {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Do not ask for the exit code (see ExecOptions.skipExitCode); it is then null. */
  skipExitCode?: boolean;
}

/** After the deadline, how long the in-sandbox `timeout` gets before the host sweeps. */
export const EXEC_GRACE_MS = 1000;
/** Exit status of a process killed by SIGKILL (128 + 9), as bash and `timeout` report it. */
export const EXIT_KILLED = 137;
