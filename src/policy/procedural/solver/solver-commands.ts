import type { TestRunner } from '../../../config/repos-schema.js';
import { SCRATCH_DIR } from '../../../sandbox/sandbox.js';
import { shellQuote, shellQuoteAll } from '../../../util/shell-quote.js';
import { RUNNER_PROBE } from './solver-runner.js';

/**
 * The shell commands the procedural Solver runs through its `bash` tool. Its files live in the
 * sandbox's scratch dir: outside the repository, so `git diff` never sees them, and never where
 * the code under test writes its own temporary files. `keep/` holds the accepted
 * content of every code file it may edit, which is how a tried edit is undone.
 */
export const WORK_DIR = `${SCRATCH_DIR}/solver`;
export const TASK_DIFF_PATH = `${WORK_DIR}/task.diff`;
export const REPORT_SCRIPT_PATH = `${WORK_DIR}/report.py`;
export const PATCH_PATH = `${WORK_DIR}/pred_patch.diff`;
/** On a JS/TS repo: the run script (see `jsRunScript`), the harness's suite script and parser for the runner, the report script. */
export const JS_RUN_PATH = `${WORK_DIR}/run-tests.sh`;
export const JS_SUITE_PATH = `${WORK_DIR}/suite.sh`;
// Not named test_parser.py: that is an artifact file's name, which the leak scan flags wherever it appears.
export const JS_PARSER_PATH = `${WORK_DIR}/runner_parser.py`;
export const JS_REPORT_PATH = `${WORK_DIR}/js_report.py`;
/** On a Vitest repo: the script that runs Vitest with per-test coverage (see `vitest_coverage.mjs`). */
export const VITEST_COVERAGE_PATH = `${WORK_DIR}/vitest_coverage.mjs`;
const JS_COVERAGE_DIR = `${WORK_DIR}/v8`;
/** Tests (or files) a JS localisation run reruns alone under V8 coverage at most. */
const JS_COVERAGE_UNITS = 40;
const RCFILE = `${WORK_DIR}/coveragerc`;
const COVERAGE_JSON = `${WORK_DIR}/coverage.json`;
const KEEP_DIR = `${WORK_DIR}/keep`;
export const FILE_BEGIN = '<<<ssr-solver-file>>>';
export const FILE_END = '<<<ssr-solver-end>>>';

// `source = .` keeps coverage to the repository (not pytest's own modules); contexts name the test
// function that ran each line, which is what the spectrum needs.
const COVERAGERC = `[run]\ndata_file = ${WORK_DIR}/.coverage\ndynamic_context = test_function\nsource = .\n`;

/**
 * Scratch dir, coverage config, whether coverage.py is available (`#coverage yes|no`), and what
 * the repo says about its language and runner (`#probe` lines, see `chooseRunner`).
 */
export function setupCommand(): string {
  return [
    `mkdir -p ${KEEP_DIR} && cd /repo`,
    `printf '%s' ${shellQuote(COVERAGERC)} > ${RCFILE}`,
    `if python3 -m coverage --version >/dev/null 2>&1; then echo '#coverage yes'; else echo '#coverage no'; fi`,
    RUNNER_PROBE,
  ].join('\n');
}

/** Apply the task diff: `git apply`, else `patch` with fuzz; says `#applied <how>` or `#not-applied`. */
export function applyTaskCommand(): string {
  const diff = TASK_DIFF_PATH;
  return [
    'cd /repo',
    `if git apply --whitespace=nowarn ${diff}; then echo '#applied git-apply'`,
    `elif patch -p1 --fuzz=3 --batch --forward --no-backup-if-mismatch --reject-file=- --dry-run < ${diff} >/dev/null 2>&1 && patch -p1 --fuzz=3 --batch --forward --no-backup-if-mismatch --reject-file=- < ${diff}; then echo '#applied patch'`,
    `else echo '#not-applied'; fi`,
  ].join('\n');
}

export interface TestRunOptions {
  /** Test files or ids; empty: the whole suite as pytest collects it. */
  targets: readonly string[];
  coverage: boolean;
  /** `short` to read tracebacks, `no` when only outcomes matter. */
  tracebacks: 'short' | 'no';
  timeoutS: number;
  /** Files to put back to their kept content after the run (undoing a tried edit). */
  restore?: readonly string[];
  /** The runner (see `chooseRunner`); default pytest. */
  runner?: TestRunner;
}

interface RunLineOptions {
  coverage: boolean;
  tracebacks: 'short' | 'no';
  timeoutS: number;
  log: string;
  runner?: TestRunner;
}

/** Lines that run the tests `targets` into `log`, leaving the exit code in `$code` and the seconds in `$elapsed`. */
function runLines(targets: readonly string[], options: RunLineOptions): string[] {
  const pytest = options.coverage ? `python3 -m coverage run --rcfile=${RCFILE} -m pytest` : 'python3 -m pytest';
  // A JS run is never under coverage itself: the report reruns single tests under V8 coverage.
  const command = isJs(options.runner) ? `bash ${JS_RUN_PATH}` : `${pytest} -rA -p no:cacheprovider --tb=${options.tracebacks}`;
  return [
    'SECONDS=0',
    `timeout --kill-after=5 ${options.timeoutS} ${command} ${shellQuoteAll(targets)} > ${options.log} 2>&1`,
    'code=$? elapsed=$SECONDS',
  ];
}

const isJs = (runner: TestRunner | undefined): boolean => runner !== undefined && runner !== 'pytest';

function report(log: string, runner: TestRunner | undefined, extra = ''): string {
  const script = isJs(runner) ? `${JS_REPORT_PATH} --parser ${JS_PARSER_PATH} --runner ${runner}` : REPORT_SCRIPT_PATH;
  return `python3 ${script} --log ${log} --exit "$code" --seconds "$elapsed"${extra}`;
}

/** Run the tests (under coverage when asked) and print the report script's summary of the run. */
export function testRunCommand(options: TestRunOptions): string {
  const log = `${WORK_DIR}/run.log`;
  if (isJs(options.runner)) {
    // The report's coverage reruns see the code as it is now, so a tried edit is undone only after it.
    const vitest = options.runner === 'vitest' ? ` --vitest-coverage ${VITEST_COVERAGE_PATH}` : '';
    const coverage = options.coverage
      ? ` --cov-dir ${JS_COVERAGE_DIR} --cov-tests ${JS_COVERAGE_UNITS} --cov-seconds "$(( ${options.timeoutS} - elapsed > 10 ? ${options.timeoutS} - elapsed : 10 ))"${vitest}`
      : '';
    const lines = ['cd /repo', ...runLines(options.targets, { ...options, log }), report(log, options.runner, coverage)];
    if (options.restore?.length) lines.push(restoreCommand(options.restore));
    return lines.join('\n');
  }
  const lines = ['cd /repo', 'export PYTHONDONTWRITEBYTECODE=1', `rm -f ${COVERAGE_JSON} ${WORK_DIR}/.coverage`, ...runLines(options.targets, { ...options, log })];
  if (options.coverage) lines.push(`python3 -m coverage json --rcfile=${RCFILE} --show-contexts -q -o ${COVERAGE_JSON} >/dev/null 2>&1`);
  if (options.restore?.length) lines.push(restoreCommand(options.restore));
  lines.push(report(log, options.runner, options.coverage ? ` --cov ${COVERAGE_JSON}` : ''));
  return lines.join('\n');
}

export interface AttemptRunOptions {
  /** The tests failing now (pytest selectors; test files on a JS repo): rerun first, alone; empty: go straight to the full run. */
  failing: readonly string[];
  /** How many tests fail now: the quick run must show fewer for the full run to follow. */
  failedCount: number;
  /** What the full run covers (see {@link TestRunOptions.targets}). */
  scope: readonly string[];
  quickTimeoutS: number;
  fullTimeoutS: number;
  /** Files to put back afterwards (undoing the tried edit). */
  restore: readonly string[];
  /** The runner (see `chooseRunner`); default pytest. */
  runner?: TestRunner;
}

/** Marks the full run's report in an attempt's output. */
export const FULL_RUN_MARKER = '#stage full';

/**
 * Judge a tried edit in two stages, in one command: rerun the failing tests alone, and only if
 * fewer of them fail (or that run could not tell) run the whole scope to look for regressions.
 * Most edits fix nothing, so most attempts cost a run of a few tests. The edit is undone after.
 */
export function attemptRunCommand(options: AttemptRunOptions): string {
  const quickLog = `${WORK_DIR}/quick.log`;
  const fullLog = `${WORK_DIR}/run.log`;
  const full = [
    `echo '${FULL_RUN_MARKER}'`,
    ...runLines(options.scope, { coverage: false, tracebacks: 'no', timeoutS: options.fullTimeoutS, log: fullLog, runner: options.runner }),
    report(fullLog, options.runner),
  ];
  // Without the list of failing tests there is nothing to run quickly.
  const staged = options.failing.length === 0 ? full : [
    ...runLines(options.failing, { coverage: false, tracebacks: 'no', timeoutS: options.quickTimeoutS, log: quickLog, runner: options.runner }),
    `${report(quickLog, options.runner, ` --promising-below ${options.failedCount}`)} > ${WORK_DIR}/quick.txt`,
    `cat ${WORK_DIR}/quick.txt`,
    `if grep -q '^#promising yes' ${WORK_DIR}/quick.txt; then`,
    ...full.map((line) => `  ${line}`),
    'fi',
  ];
  return ['cd /repo', 'export PYTHONDONTWRITEBYTECODE=1', ...staged, restoreCommand(options.restore)].join('\n');
}

/** Put files back to their kept content (undo a tried edit). */
export function restoreCommand(files: readonly string[]): string {
  return ['cd /repo', ...files.map((file) => `cp ${shellQuote(`${KEEP_DIR}/${file}`)} ${shellQuote(file)}`)].join('\n');
}

/** Bytes of file content one read shows (the bash tool cuts observations at 16 KiB). */
export const READ_CHUNK_BYTES = 12_000;

/**
 * Print a code file from `startLine` between markers, as many whole lines as fit in one
 * observation, then `#next <line>` or `#eof`. The first read also keeps a copy in `keep/`.
 */
export function readFileCommand(file: string, startLine: number): string {
  const quoted = shellQuote(file);
  const keep = startLine === 1 ? `mkdir -p "$(dirname ${shellQuote(`${KEEP_DIR}/${file}`)})" && cp ${quoted} ${shellQuote(`${KEEP_DIR}/${file}`)} && ` : '';
  const awk =
    `BEGIN { print "${FILE_BEGIN}" } NR >= a { if (n + length($0) + 1 > cap && NR > a) { cut = NR; exit } print; n += length($0) + 1 } ` +
    `END { print "${FILE_END}"; if (cut) print "#next " cut; else print "#eof" }`;
  return `cd /repo && ${keep}awk -v a=${startLine} -v cap=${READ_CHUNK_BYTES} ${shellQuote(awk)} ${quoted}`;
}

/**
 * Record the accepted state: keep the edited files' content and write their diff (code files
 * only; the task's test changes are not part of the fix) to {@link PATCH_PATH}.
 */
export function saveFixCommand(keptFiles: readonly string[]): string {
  const files = [...keptFiles].sort();
  const keep = files.map((file) => `cp ${shellQuote(file)} ${shellQuote(`${KEEP_DIR}/${file}`)}`);
  const diff = files.length === 0 ? `: > ${PATCH_PATH}` : `git diff --no-color --no-ext-diff -- ${shellQuoteAll(files)} > ${PATCH_PATH}`;
  return ['cd /repo', ...keep, diff, `echo "#patch-bytes $(wc -c < ${PATCH_PATH})"`, files.length === 0 ? ':' : `git diff --stat -- ${shellQuoteAll(files)}`].join('\n');
}
