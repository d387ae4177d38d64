import type { WeakeningGranularity } from '../../../validator/bug-quality.js';
import { formatTestFilesList } from '../../../artifact/test-files-list.js';
import { shellQuoteAll } from '../../../util/shell-quote.js';
import { bash, submit, type Steps } from '../program.js';
import type { BugRecord } from './bug-candidate.js';
import type { InjectorAssets } from './injector-assets.js';
import { ARTIFACT_DIR, heredoc } from './injector-commands.js';
import { testScript, type TestSuite } from './test-suite.js';
import { testFilesForRunner } from '../../../harness/repo-test-files.js';

/** The metadata the procedural Injector writes next to the artifact (`metadata.json`). */
export interface InjectorMetadata {
  policy: 'procedural';
  seed: number;
  strategy: string;
  requestedStrategy: string;
  operators: BugRecord[];
  oracleFiles: string[];
  failToPass: string[];
  /** `granularity`: single assertions, whole tests or both (the smallest concealment is tried first). */
  weakening: { granularity: WeakeningGranularity; deletedTests: string[]; deletedAssertions: string[] };
  attempts: number;
  /** The Injector's own test runs up to the submission (its clean runs, one per candidate, the confirmations, the weakened run). */
  testRuns: { full: number; restricted: number };
  /** What each candidate ran against: the test files executing its lines, or the whole suite and why (coverage that could not be taken). */
  candidateTests: string;
}

/** Paths of the artifact files inside the sandbox (method §2 names) plus metadata.json. */
export const ARTIFACT_PATHS = {
  bug_inject: `${ARTIFACT_DIR}/bug_inject.diff`,
  test_weaken: `${ARTIFACT_DIR}/test_weaken.diff`,
  test_files: `${ARTIFACT_DIR}/test_files.txt`,
  test_script: `${ARTIFACT_DIR}/test_script.sh`,
  test_parser: `${ARTIFACT_DIR}/test_parser.py`,
} as const;
export const METADATA_PATH = `${ARTIFACT_DIR}/metadata.json`;

export type WriteOutcome = { status: 'submitted' } | { status: 'failed'; reason: string };

/**
 * Write the five files, plus metadata.json, in one bash command, then `submit` the five paths.
 * bug_inject.diff is the kept changes' own diffs (O → B, one per code file); test_weaken.diff is
 * `git diff` of the oracle files against B (the bug staged in the index first), so a code file
 * that hosts doctests, in both, gives its code hunks to the one and its example hunks to the other.
 */
export async function* writeArtifact(input: {
  suite: TestSuite;
  assets: InjectorAssets;
  /** The kept changes' diffs against O (in the sandbox), one per code file. */
  bugDiffs: readonly string[];
  oracleFiles: readonly string[];
  metadata: InjectorMetadata;
}): Steps<WriteOutcome> {
  const git = 'git -c core.quotepath=off diff --no-color --no-ext-diff --no-renames';
  const files: [string, string][] = [
    [ARTIFACT_PATHS.test_files, formatTestFilesList(input.oracleFiles)],
    [ARTIFACT_PATHS.test_script, testScript(input.suite, input.oracleFiles)],
    [ARTIFACT_PATHS.test_parser, parserOf(input.suite, input.assets)],
    [METADATA_PATH, `${JSON.stringify(input.metadata, null, 2)}\n`],
  ];
  // The diffs, the list, the script, the parser and metadata.json in one command (one turn, not five);
  // a subshell with `set -e` stops at the first failing step (heredocs cannot be chained with &&).
  const command = [
    '(',
    'set -e',
    `cd /repo && cat ${shellQuoteAll(input.bugDiffs)} > ${ARTIFACT_PATHS.bug_inject}`,
    `git apply --cached --whitespace=nowarn ${ARTIFACT_PATHS.bug_inject}`,
    `${git} -- ${shellQuoteAll(input.oracleFiles)} > ${ARTIFACT_PATHS.test_weaken}`,
    'git reset -q',
    ...files.map(([path, content]) => heredoc(path, content)),
    `wc -l ${ARTIFACT_PATHS.bug_inject} ${ARTIFACT_PATHS.test_weaken}`,
    `test -s ${ARTIFACT_PATHS.bug_inject} && test -s ${ARTIFACT_PATHS.test_weaken}`,
    ')',
  ].join('\n');
  const written = yield bash(command, 'Write bug_inject.diff (the code changes), test_weaken.diff (the test changes, against the bug), the test list, script and parser, and metadata.json.');
  if (!written.ok) return { status: 'failed', reason: `writing the artifact failed: ${written.text.slice(-200)}` };
  const submitted = yield submit({ ...ARTIFACT_PATHS }, 'Submit the five artifact files.');
  if (!submitted.ok) return { status: 'failed', reason: `submit refused: ${submitted.text.split('\n')[0]}` };
  return { status: 'submitted' };
}

/** test_parser.py of a suite: the pytest `-rA` parser, the unittest one, or ssr's parser for the JS runner. */
function parserOf(suite: TestSuite, assets: InjectorAssets): string {
  if (suite.kind === 'js') return testFilesForRunner(suite.runner).testParser;
  return suite.kind === 'pytest' ? assets.pytestParser : assets.unittestParser;
}
