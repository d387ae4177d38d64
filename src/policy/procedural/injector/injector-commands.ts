import type { JsRunner } from '../../../harness/js-test-files.js';
import { testFilesForRunner } from '../../../harness/repo-test-files.js';
import { shellQuote, shellQuoteAll } from '../../../util/shell-quote.js';
import type { InjectorAssets } from './injector-assets.js';
import { JS_SOURCE_GLOBS, JS_TEST_LIKE } from './js-files.js';
import { readBackCommand } from './read-back.js';
import { searchCommand, type PytestExtras, type TestSuite } from './test-suite.js';

/** The Injector's own scratch files (helpers, logs, candidate diffs), outside the repository. */
export const WORK_DIR = '/tmp/ssr_work';
/** Where the five artifact files (and metadata.json) are written before `submit`. */
export const ARTIFACT_DIR = '/tmp/ssr_art';
/** Status map of the clean run every later run is compared with. */
export const BASELINE_JSON = `${WORK_DIR}/o.json`;
/** Which test files executed each code line in the traced clean run (trace_lines.py --map). */
export const TEST_MAP = `${WORK_DIR}/tcov.txt`;
/** The setup's listing of the repository's source files (read back whole, see readBack). */
export const LISTING_FILE = `${WORK_DIR}/listing.txt`;
/** Status map of the combined buggy run (B), which the weakened run is compared with. */
export const BUGGY_JSON = `${WORK_DIR}/b.json`;

/** Parser file of a suite kind inside {@link WORK_DIR}. */
export function parserPath(suite: TestSuite): string {
  return `${WORK_DIR}/${suite.kind}_parser.py`;
}

/**
 * One bash command that writes the helper scripts (with quoted heredocs: no expansion) and lists
 * the repository: `@@files N`, then {@link LISTING_FILE} (`@@py LINES BYTES PATH` for every tracked
 * Python file, test-like paths first) through readBackCommand: whole, so a file past the tool's
 * 16 KiB output cap is listed too (the listing used to stop at 200 code files, and networkx's 79
 * others were never traced nor mutated).
 */
export function setupCommand(assets: InjectorAssets): string {
  const files: [string, string][] = [
    [`${WORK_DIR}/summarize_run.py`, assets.summarizeRun],
    [`${WORK_DIR}/trace_lines.py`, assets.traceLines],
    [`${WORK_DIR}/apply_edits.py`, assets.applyEdits],
    [`${WORK_DIR}/pytest_parser.py`, assets.pytestParser],
    [`${WORK_DIR}/unittest_parser.py`, assets.unittestParser],
  ];
  const writes = files.map(([path, content]) => heredoc(path, content));
  const listing = (filter: string) => listingCommand(`'*.py'`, filter, '@@py');
  return [
    `rm -rf ${WORK_DIR} ${ARTIFACT_DIR} && mkdir -p ${WORK_DIR} ${ARTIFACT_DIR}`,
    ...writes,
    'cd /repo',
    `echo "@@files $(git ls-files | wc -l)"`,
    `{ ${listing(`-E '(^|/)(tests?|testing)/|(^|/)test_[^/]*$|_test\\.py$|(^|/)conftest\\.py$'`)}`,
    `${listing(`-v -E '(^|/)(tests?|testing)/|(^|/)test_[^/]*$|_test\\.py$|(^|/)conftest\\.py$'`)}; } > ${LISTING_FILE}`,
    readBackCommand(LISTING_FILE),
  ].join('\n');
}

/**
 * {@link setupCommand} for a JS/TS repo: the helpers plus the runner's parser (as `js_parser.py`),
 * and `@@src LINES BYTES PATH` for the JS/TS files (declarations and bundles left out), test-like
 * paths first, in {@link LISTING_FILE} read back whole.
 */
export function jsSetupCommand(assets: InjectorAssets, runner: JsRunner): string {
  const files: [string, string][] = [
    [`${WORK_DIR}/summarize_run.py`, assets.summarizeRun],
    [`${WORK_DIR}/js_failures.py`, assets.jsFailures],
    [`${WORK_DIR}/v8_lines.py`, assets.v8Lines],
    [`${WORK_DIR}/trace_lines.py`, assets.traceLines],
    [`${WORK_DIR}/apply_edits.py`, assets.applyEdits],
    [parserPath({ kind: 'js', runner }), testFilesForRunner(runner).testParser],
  ];
  const globs = JS_SOURCE_GLOBS.map((glob) => `'${glob}'`).join(' ');
  const sources = (filter: string) => listingCommand(globs, `-v -E '\\.d\\.[cm]?ts$|\\.min\\.js$' | grep -z ${filter}`, '@@src');
  return [
    `rm -rf ${WORK_DIR} ${ARTIFACT_DIR} && mkdir -p ${WORK_DIR} ${ARTIFACT_DIR}`,
    ...files.map(([path, content]) => heredoc(path, content)),
    'cd /repo',
    `echo "@@files $(git ls-files | wc -l)"`,
    `{ ${sources(`-E '${JS_TEST_LIKE}'`)}`,
    `${sources(`-v -E '${JS_TEST_LIKE}'`)}; } > ${LISTING_FILE}`,
    readBackCommand(LISTING_FILE),
  ].join('\n');
}

// Tracked files matching `globs`, filtered by `grep -z <filter>`: `TAG LINES BYTES PATH` each.
function listingCommand(globs: string, filter: string, tag: string): string {
  return (
    `git ls-files -z -- ${globs} | grep -z ${filter} | xargs -0 -r wc -lc | ` +
    `awk '$NF != "total" { n=$1; b=$2; $1=""; $2=""; sub(/^ +/, ""); print "${tag}", n, b, $0 }'`
  );
}

/**
 * Run the suite (or `files`) into `<label>.log`, killed after `timeoutS` seconds, parse it with
 * the suite's parser into `<label>.json` and summarise it (against the clean baseline when
 * `against` is given; `ran`: the groups a run restricted to `files` ran, the other tests of the
 * baseline keep their status there and in `<label>.json`, see summarize_run.py). Prints `@@exit N` with the test command's exit status (124: timed out) and
 * `@@ms N` with its wall time, then summarize_run.py's `@@` lines. `pytest` (durations, maxFail):
 * see {@link PytestExtras}; a run pytest stopped at maxFail prints `@@stopped N` (failures).
 */
export function runCommand(
  suite: TestSuite,
  label: string,
  options: { timeoutS: number; files?: readonly string[]; against?: string; fails?: boolean; limit?: number; ran?: readonly string[]; pytest?: PytestExtras; v8CoverageDir?: string },
): string {
  const log = `${WORK_DIR}/${label}.log`;
  const json = `${WORK_DIR}/${label}.json`;
  const summary = [
    // The parser runs inside summarize_run.py (--parser): one Python start per run, not two (issue 26).
    `python3 ${WORK_DIR}/summarize_run.py --parser ${parserPath(suite)} --kind ${suite.kind} --log ${log} --statuses ${json}`,
    options.against ? ` --baseline ${options.against}` : '',
    options.fails ? ' --fails' : '',
    options.limit !== undefined ? ` --limit ${options.limit}` : '',
    options.ran && options.ran.length > 0 ? ` --ran ${shellQuoteAll(options.ran)}` : '',
  ].join('');
  // With a coverage folder, every Node process of the run writes its V8 coverage there (a JS trace read later).
  const coverage = options.v8CoverageDir ? { make: `rm -rf ${options.v8CoverageDir} && mkdir -p ${options.v8CoverageDir} && `, env: `NODE_V8_COVERAGE=${options.v8CoverageDir} ` } : { make: '', env: '' };
  return [
    `cd /repo && ${coverage.make}__ssr_t0=$(date +%s%N) && ${coverage.env}timeout --kill-after=5 ${options.timeoutS} ${searchCommand(suite, options.files, options.pytest)} > ${log} 2>&1; ` +
      `__ssr_rc=$?; echo "@@exit $__ssr_rc"; echo "@@suite ${options.files ? 'restricted' : 'full'}"; echo "@@ms $(( ($(date +%s%N) - __ssr_t0) / 1000000 ))"`,
    ...(options.pytest?.maxFail !== undefined ? [`sed -n -E 's/^!+ (Interrupted: )?stopping after ([0-9]+) failures? !+$/@@stopped \\2/p' ${log} | tail -n 1`] : []),
    summary,
  ].join('\n');
}

/**
 * Apply whole-line edits (as the `edit` tool would) in one command: the edits go in a JSON file
 * written by a heredoc, then apply_edits.py prints `@@edited N` or `@@edit-failed PATH: WHY`.
 * The command fails (so a `&&` chain stops) when an edit does not apply.
 */
export function applyEditsCommand(edits: ReadonlyArray<{ path: string; search: string; replace: string }>, label: string): string {
  const file = `${WORK_DIR}/${label}.edits.json`;
  return `${heredoc(file, JSON.stringify(edits))}
cd /repo && python3 ${WORK_DIR}/apply_edits.py ${file}`;
}

/** Keep the change to `files` as `<diffPath>` and put them back to HEAD (the next try starts clean). */
export function stashCommand(files: readonly string[], diffPath: string): string {
  return `cd /repo && git diff --no-color --no-ext-diff -- ${shellQuoteAll(files)} > ${diffPath}; git checkout -q -- ${shellQuoteAll(files)}`;
}

// Prints bytes [start, start+count) of a file, backed off to a UTF-8 character boundary, then
// `@@PAGE NEXT TOTAL` (NEXT: where the next page starts): exact bytes, newline or not at the end.
const PAGE_SCRIPT = [
  'import sys',
  'b = open(sys.argv[1], "rb").read()',
  's = int(sys.argv[2]); e = min(len(b), s + int(sys.argv[3]))',
  'while s < e < len(b) and b[e] & 0xC0 == 0x80: e -= 1',
  'sys.stdout.buffer.write(b[s:e]); sys.stdout.write("@@PAGE %d %d\\n" % (e, len(b)))',
].join('\n');

/** Print `count` bytes of a repository file from byte `start` (see {@link PAGE_SCRIPT}). */
export function pageCommand(path: string, start: number, count: number): string {
  return `cd /repo && python3 -c ${shellQuote(PAGE_SCRIPT)} ${shellQuote(path)} ${start} ${count}`;
}

/** A quoted heredoc writing `content` to `path` exactly (a delimiter the content does not contain). */
export function heredoc(path: string, content: string): string {
  let delimiter = 'SSR_EOF';
  for (let n = 1; content.includes(delimiter); n++) delimiter = `SSR_EOF_${n}`;
  const body = content.endsWith('\n') ? content : `${content}\n`;
  return `cat > ${shellQuote(path)} <<'${delimiter}'\n${body}${delimiter}`;
}
