import { posix } from 'node:path';
import type { TestRunner } from '../../../config/repos-schema.js';
import { bash, type Steps } from '../program.js';
import { discoverJs } from './discover-js.js';
import { injectorAssets } from './injector-assets.js';
import { heredoc, LISTING_FILE, runCommand, setupCommand, TEST_MAP, WORK_DIR } from './injector-commands.js';
import { mayBeRead } from './code-file-pool.js';
import { readBack, readBackCommand } from './read-back.js';
import { classifyPyFiles, countsPerFile, coverageOf, parseSourceListing, type SourceFile, type RepoFacts } from './repo-facts.js';
import { runLimitSeconds } from '../run-limits.js';
import { parseRunSummary } from './run-summary.js';
import { memoKey, saveDiscovery, TREE_KEY_COMMAND, type DiscoveryMemos } from './discovery-memo.js';
import { sharedDiscovery, sharing } from './shared-discovery.js';
import type { TestSuite } from './test-suite.js';

/** Discovery's outcome: the facts, or why the repo cannot be played. */
export type Discovery = { status: 'ok'; facts: RepoFacts } | { status: 'failed'; reason: string };

/**
 * Learn the repo: write the helper scripts, list the Python files, run the whole suite once
 * with pytest (falling back to unittest when pytest is missing or collects nothing) to know
 * which tests pass and how long the suite takes, and, when asked, trace which code lines it
 * executes. `maxRunS` caps every run (the limit the prompts state). A JS/TS repo (its prompt
 * names a JS runner) is learnt by {@link discoverJs} instead.
 */
export async function* discover(options: DiscoverOptions): Steps<Discovery> {
  if (options.runner && options.runner !== 'pytest') return yield* discoverJs(options.runner, options);
  const listing = yield bash(`${setupCommand(injectorAssets())}\n${TREE_KEY_COMMAND}`, 'Write my helper scripts to /tmp and list the Python files of the repo.');
  if (!listing.ok) return { status: 'failed', reason: `setup failed: ${listing.text.slice(-300)}` };
  const listed = yield* readBack(LISTING_FILE, listing.text, 'Read the rest of the file listing.');
  if (listed.status === 'failed') return { status: 'failed', reason: `listing the repository failed: ${listed.reason}` };
  const sourceFiles = parseSourceListing(listed.text);
  const { testFiles, codeFiles } = classifyPyFiles(sourceFiles.keys());
  if (codeFiles.length === 0) return { status: 'failed', reason: 'the repository has no Python code files' };

  const key = memoKey(listing.text, { runner: 'pytest', coverage: options.coverage, maxRunS: options.maxRunS });
  return yield* sharedDiscovery(sharing(options, key), async function* (memo): Steps<Discovery> {
    const restored = memo !== null;
    let suite: TestSuite = restored ? memo.suite : { kind: 'pytest' };
    // pytest's per-test durations: each candidate's run limit comes from its own tests' clean time (candidateLimitS).
    const clean = { limit: 50, timeoutS: options.maxRunS, pytest: { durations: true } };
    let cleanText = restored ? memo.cleanText : (yield bash(runCommand(suite, 'o', clean), 'Run the whole test suite once with pytest to see which tests pass.')).text;
    let baseline = parseRunSummary(cleanText);
    if (!restored && (!baseline || baseline.passed === 0)) {
      suite = { kind: 'unittest', startDir: unittestStartDir(testFiles, sourceFiles) };
      const why = 'pytest found no passing tests; try the standard library unittest runner instead.';
      cleanText = (yield bash(runCommand(suite, 'o', clean), why)).text;
      baseline = parseRunSummary(cleanText);
    }
    if (!baseline || baseline.passed === 0) return { status: 'failed', reason: 'no test passes on the original repository (pytest and unittest tried)' };
    // pytest names every file it ran: a large repo's test files beyond the listing's cut are known too.
    if (suite.kind === 'pytest') for (const key of baseline.groups.keys()) if (key.endsWith('.py')) testFiles.add(key);
    // Unknown time (no marker): the cap, as before the clean run was timed.
    const cleanMs = Number(baseline.markers.get('ms'));
    const runLimitS = Number.isFinite(cleanMs) ? runLimitSeconds(cleanMs / 1000, options.maxRunS) : options.maxRunS;
    const facts: RepoFacts = { sourceFiles, testFiles, codeFiles, suite, baseline, perFile: countsPerFile(baseline, suite, testFiles), coverage: null, runLimitS };
    // Tracing slows the suite several times over: it gets the cap, not the clean run's limit.
    // Only files that may be read are traced: no other can become a candidate (see codeFilePool).
    const traced = codeFiles.filter((file) => mayBeRead(sourceFiles.get(file)));
    const traceText = !options.coverage ? null : restored ? memo.traceText : yield* traceCoverage(suite, traced, options.maxRunS);
    if (traceText !== null) facts.coverage = coverageOf(traceText);
    // A trace that failed is not kept: the next episode tries it again.
    if (!restored && key !== null && options.memos && (traceText === null || facts.coverage !== null)) yield* saveDiscovery(options.memos, key, { suite, cleanText, traceText });
    return { status: 'ok', facts };
  });
}

/** What discovery is told: whether to trace, the run cap, the runner the prompt names, and the policy's memos (see DiscoveryMemo). */
export interface DiscoverOptions {
  coverage: boolean;
  maxRunS: number;
  runner?: TestRunner | null;
  memos?: DiscoveryMemos;
  /** Told how long the episode waited for another episode's discovery of the same tree, ms. */
  onWait?: (ms: number) => void;
}

/** The traced run's `@@cov` lines, read back whole ('' when they did not come back: no coverage, the next episode traces again). */
async function* traceCoverage(suite: TestSuite, codeFiles: readonly string[], timeoutS: number): Steps<string> {
  const list = `${WORK_DIR}/code_files.txt`;
  const lines = `${WORK_DIR}/cov.txt`;
  const args = suite.kind === 'unittest' ? `unittest discover -s ${suite.startDir}` : 'pytest -q -p no:cacheprovider';
  const command = [
    heredoc(list, codeFiles.join('\n')),
    `cd /repo && PYTHONDONTWRITEBYTECODE=1 timeout --kill-after=5 ${timeoutS} python3 ${WORK_DIR}/trace_lines.py ${list} --map ${TEST_MAP} ${args} > ${WORK_DIR}/cov.log 2>&1`,
    `grep '^@@cov' ${WORK_DIR}/cov.log > ${lines}`,
    readBackCommand(lines),
  ].join('\n');
  const traced = yield bash(command, 'Trace which lines of the code the tests execute, to break only code the tests reach.');
  const read = yield* readBack(lines, traced.text, 'Read the rest of the traced lines.');
  return read.status === 'ok' ? read.text : '';
}

/** The directory holding most test files: '.' when it is a package (ids are dotted from the root), else itself. */
export function unittestStartDir(testFiles: ReadonlySet<string>, sourceFiles: ReadonlyMap<string, SourceFile>): string {
  const counts = new Map<string, number>();
  for (const file of testFiles) {
    const dir = posix.dirname(file);
    counts.set(dir, (counts.get(dir) ?? 0) + 1);
  }
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '.';
  if (best === '.' || sourceFiles.has(`${best}/__init__.py`)) return '.';
  return best;
}

