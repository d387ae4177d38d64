import { MATERIAL_RUN_UID } from './test-material.js';

/**
 * The JS runners' JSON report, out of the test user's reach (docs/grading.md, "The JS report
 * travels outside the test user's reach"). A report the runner writes to a file the test script
 * then prints can be rewritten in between by a process the code under test left behind (it can
 * stop the script, wait for the runner to exit, rewrite the file, and let the script go on). So
 * where the driver is root and the script runs as the unprivileged user, the driver offers a FIFO
 * in its own folder (`$SSR_REPORT_FIFO`, mode 0622: the test user may open it for writing only)
 * and reads it itself; jest.sh and vitest.sh point `--outputFile` at it (mocha.sh's guard writes the report it
 * read back and checked into it). After the script, every
 * process of the test user is killed (nothing can write any more), and the driver appends what it
 * read to the log as the last block, with the script's exit status:
 *
 *   ssr-json-report-supervised-begin <script exit>
 *   <what the FIFO carried>
 *   ssr-json-report-supervised-end
 *
 * It appends the block whenever the FIFO carried anything or the log holds any line starting
 * `ssr-json-report-supervised` (the script's announcement, or a block code under test printed),
 * so a forged block is always followed by the driver's own. The parser then reads only the last
 * such block: extra bytes written into the FIFO make it no JSON, and a runner killed before it
 * wrote leaves an exit status that is neither 0 nor 1, so neither counts.
 */
export const REPORT_FIFO_ENV = 'SSR_REPORT_FIFO';
export const SUPERVISED_BEGIN = 'ssr-json-report-supervised-begin';
export const SUPERVISED_END = 'ssr-json-report-supervised-end';

/**
 * Whether a run offers the FIFO: only to a script that names {@link REPORT_FIFO_ENV} (ssr's jest,
 * vitest and mocha scripts). A pytest script never reads it, and offering it was four process
 * starts (mkdir, chmod, mkfifo, its reader) and two more to end the test user's processes, in every
 * run. Whatever the script, the log is still checked for a block it did not get from the driver.
 */
export function offersReportFifo(testScript: string): boolean {
  return testScript.includes(REPORT_FIFO_ENV);
}

/** Bash (the driver, guarded runs, after the material lock set `run_as`; `$fifo` 1 when {@link offersReportFifo}): the FIFO and its reader. */
export function reportFifoSnippet(): string {
  return `
r_pid=
if [ "$fifo" = 1 ] && [ "\${#run_as[@]}" -gt 0 ] && command -v mkfifo >/dev/null 2>&1; then
  mkdir -p "$g_dir/r" && chmod 711 "$g_dir/r" && mkfifo -m 622 "$g_dir/r/report" && {
    cat "$g_dir/r/report" > "$g_dir/r.json" 2>/dev/null &
    r_pid=$!
    run_env+=("${REPORT_FIFO_ENV}=$g_dir/r/report")
  }
fi
`;
}

/**
 * Bash (the driver, after the script): end the test user's processes, collect the FIFO, append
 * the block. Where the FIFO was not offered but would have been (a second user), the block is
 * still appended, empty, after a log that holds a line starting `ssr-json-report-supervised`: a
 * block the code under test printed is never the last one. (The supervisor has already killed
 * every process of the test user; the kill here is for the FIFO's writers.)
 */
export function reportCollectSnippet(): string {
  const uid = MATERIAL_RUN_UID;
  return `
if [ -n "$r_pid" ]; then
  setpriv --reuid=${uid} --regid=${uid} --clear-groups bash -c 'kill -KILL -1' 2>/dev/null
  exec 9<>"$g_dir/r/report"; exec 9>&-
  wait "$r_pid" 2>/dev/null
fi
if [ "\${#run_as[@]}" -gt 0 ] && { [ -s "$g_dir/r.json" ] || grep -q '^ssr-json-report-supervised' "$log_f" 2>/dev/null; }; then
  { printf '\\n${SUPERVISED_BEGIN} %s\\n' "$sc"; cat "$g_dir/r.json" 2>/dev/null; printf '\\n${SUPERVISED_END}\\n'; } >> "$log_f"
fi
`;
}
