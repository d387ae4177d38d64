import type { JsRunner } from '../../../harness/js-test-files.js';
import { RUNNER_NAMES } from '../../../harness/runner-names.js';
import { bash, type Steps } from '../program.js';
import { runLimitSeconds } from '../run-limits.js';
import type { DiscoverOptions, Discovery } from './discover.js';
import { memoKey, saveDiscovery, TREE_KEY_COMMAND } from './discovery-memo.js';
import { sharedDiscovery, sharing } from './shared-discovery.js';
import { injectorAssets } from './injector-assets.js';
import { heredoc, jsSetupCommand, LISTING_FILE, runCommand, TEST_MAP, WORK_DIR } from './injector-commands.js';
import { readBack, readBackCommand } from './read-back.js';
import { classifyJsFiles, coverableByV8 } from './js-files.js';
import { countsPerFile, coverageOf, parseSourceListing, type RepoFacts } from './repo-facts.js';
import { parseRunSummary } from './run-summary.js';
import { searchCommand, type TestSuite } from './test-suite.js';

/**
 * Runners whose test files Node loads as written, so V8's coverage offsets are the file's own:
 * Jest and Vitest transform every module first (their offsets are the transformed code's).
 */
const V8_RUNNERS: ReadonlySet<JsRunner> = new Set(['node-test', 'mocha', 'tape', 'node-tap']);

/**
 * Learn a JS/TS repo: write the helpers and the runner's parser, list the JS/TS files, run the
 * whole suite once with ssr's script for the runner the prompt names, and, when asked and the
 * code is plain JavaScript under a runner that does not transform it, record which lines ran
 * with Node's own V8 coverage. Without coverage, files are drawn by size.
 */
export async function* discoverJs(runner: JsRunner, options: Omit<DiscoverOptions, 'runner'>): Steps<Discovery> {
  const listing = yield bash(`${jsSetupCommand(injectorAssets(), runner)}\n${TREE_KEY_COMMAND}`, 'Write my helper scripts to /tmp and list the JavaScript and TypeScript files of the repo.');
  if (!listing.ok) return { status: 'failed', reason: `setup failed: ${listing.text.slice(-300)}` };
  const read = yield* readBack(LISTING_FILE, listing.text, 'Read the rest of the file listing.');
  if (read.status === 'failed') return { status: 'failed', reason: `listing the repository failed: ${read.reason}` };
  const sourceFiles = parseSourceListing(read.text);
  const { testFiles, codeFiles: listed } = classifyJsFiles(sourceFiles.keys());
  if (listed.length === 0) return { status: 'failed', reason: 'the repository has no JavaScript or TypeScript code files' };

  const suite: TestSuite = { kind: 'js', runner };
  const key = memoKey(listing.text, { runner, coverage: options.coverage, maxRunS: options.maxRunS });
  return yield* sharedDiscovery(sharing(options, key), async function* (memo): Steps<Discovery> {
    const restored = memo !== null;
    const clean = { limit: 50, timeoutS: options.maxRunS };
    const cleanText = restored ? memo.cleanText : (yield bash(runCommand(suite, 'o', clean), `Run the whole test suite once with ${RUNNER_NAMES[runner]} to see which tests pass.`)).text;
    const baseline = parseRunSummary(cleanText);
    if (!baseline || baseline.passed === 0) return { status: 'failed', reason: `no test passes on the original repository (${RUNNER_NAMES[runner]})` };
    // The runner names every file it ran, whatever its name patterns: those are test files, never code.
    for (const key of baseline.groups.keys()) if (sourceFiles.has(key)) testFiles.add(key);
    const codeFiles = listed.filter((file) => !testFiles.has(file));
    const cleanMs = Number(baseline.markers.get('ms'));
    const runLimitS = Number.isFinite(cleanMs) ? runLimitSeconds(cleanMs / 1000, options.maxRunS) : options.maxRunS;
    const facts: RepoFacts = { sourceFiles, testFiles, codeFiles, suite, baseline, perFile: countsPerFile(baseline, suite, testFiles), coverage: null, runLimitS };
    const traces = options.coverage && V8_RUNNERS.has(runner) && codeFiles.every(coverableByV8);
    const traceText = !traces ? null : restored ? memo.traceText : yield* traceV8Coverage(suite, codeFiles, [...testFiles], options.maxRunS);
    if (traceText !== null) facts.coverage = coverageOf(traceText);
    if (!restored && key !== null && options.memos && (traceText === null || facts.coverage !== null)) yield* saveDiscovery(options.memos, key, { suite, cleanText, traceText });
    return { status: 'ok', facts };
  });
}

async function* traceV8Coverage(suite: TestSuite, codeFiles: readonly string[], testFiles: readonly string[], timeoutS: number): Steps<string> {
  const list = `${WORK_DIR}/code_files.txt`;
  const tests = `${WORK_DIR}/test_files.txt`;
  const dir = `${WORK_DIR}/v8`;
  const lines = `${WORK_DIR}/cov.txt`;
  const command = [
    heredoc(list, codeFiles.join('\n')),
    heredoc(tests, testFiles.join('\n')),
    `rm -rf ${dir} && mkdir -p ${dir}`,
    `cd /repo && NODE_V8_COVERAGE=${dir} timeout --kill-after=5 ${timeoutS} ${searchCommand(suite)} > ${WORK_DIR}/cov.log 2>&1`,
    // Each test file's own Node process: which of them ran each line (the candidates' test files).
    `python3 ${WORK_DIR}/v8_lines.py ${list} ${dir} --map ${TEST_MAP} ${tests} > ${lines}`,
    readBackCommand(lines),
  ].join('\n');
  const traced = yield bash(command, 'Run the suite with V8 coverage to see which lines of the code the tests execute, to break only code they reach.');
  const read = yield* readBack(lines, traced.text, 'Read the rest of the traced lines.');
  return read.status === 'ok' ? read.text : '';
}
