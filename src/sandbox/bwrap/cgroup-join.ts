/** Exit status of {@link joinCgroupsArgv}'s shell when it cannot enter a cgroup. */
export const JOIN_FAILED_EXIT = 125;

// `$1` = how many cgroup.procs files follow, then the files, then the argv to exec. The shell
// writes its own pid, so the program it execs (same pid) and everything that forks from it start
// inside: no window in which a child could be born outside the limits.
const JOIN_SCRIPT = [
  'n=$1; shift',
  'while [ "$n" -gt 0 ]; do',
  `  echo $$ > "$1" || { echo "ssr: cannot join cgroup $1" >&2; exit ${JOIN_FAILED_EXIT}; }`,
  '  shift; n=$((n - 1))',
  'done',
  'exec "$@"',
].join('\n');

/**
 * `[file, args]` to spawn so that `argv` runs inside the cgroups of `procsFiles` (their
 * `cgroup.procs`). Same pid, process group and file descriptors as spawning `argv` directly.
 */
export function joinCgroupsArgv(procsFiles: readonly string[], argv: readonly string[]): [string, string[]] {
  return ['/bin/sh', ['-c', JOIN_SCRIPT, 'ssr-cgroup-join', String(procsFiles.length), ...procsFiles, ...argv]];
}
