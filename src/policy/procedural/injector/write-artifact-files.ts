import type { WeakeningGranularity } from '../../../corpus/bug-quality.js';
import { formatTestFilesList } from '../../../artifact/test-files-list.js';
import { shellQuoteAll } from '../../../util/shell-quote.js';
import { bash, create, submit, type Steps } from '../program.js';
import type { BugRecord } from './bug-candidate.js';
import type { InjectorAssets } from './injector-assets.js';
import { ARTIFACT_DIR } from './injector-commands.js';
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
}

/** Paths of the artifact files inside the sandbox (SPEC §2 names) plus metadata.json. */
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
 * Write the five files with git and `create`, plus metadata.json, then `submit` the five paths.
 * The diffs come from `git diff` of the working tree (B + W): code files for bug_inject.diff, the
 * oracle test files for test_weaken.diff.
 */
export async function* writeArtifact(input: {
  suite: TestSuite;
  assets: InjectorAssets;
  codeFiles: readonly string[];
  oracleFiles: readonly string[];
  metadata: InjectorMetadata;
}): Steps<WriteOutcome> {
  const git = 'git -c core.quotepath=off diff --no-color --no-ext-diff --no-renames';
  const diffs = [
    `cd /repo && ${git} -- ${shellQuoteAll(input.codeFiles)} > ${ARTIFACT_PATHS.bug_inject}`,
    `${git} -- ${shellQuoteAll(input.oracleFiles)} > ${ARTIFACT_PATHS.test_weaken}`,
    `wc -l ${ARTIFACT_PATHS.bug_inject} ${ARTIFACT_PATHS.test_weaken}`,
    `test -s ${ARTIFACT_PATHS.bug_inject} && test -s ${ARTIFACT_PATHS.test_weaken}`,
  ].join(' && ');
  const written = yield bash(diffs, 'Write bug_inject.diff (code files) and test_weaken.diff (test files) with git diff.');
  if (!written.ok) return { status: 'failed', reason: `writing the diffs failed: ${written.text.slice(-200)}` };
  const files: [string, string, string][] = [
    [ARTIFACT_PATHS.test_files, formatTestFilesList(input.oracleFiles), 'List the oracle test files.'],
    [ARTIFACT_PATHS.test_script, testScript(input.suite, input.oracleFiles), 'Write the script that runs the oracle tests verbosely.'],
    [ARTIFACT_PATHS.test_parser, parserOf(input.suite, input.assets), 'Write the parser of that output.'],
    [METADATA_PATH, `${JSON.stringify(input.metadata, null, 2)}\n`, 'Record the strategy and operators in metadata.json next to the artifact.'],
  ];
  for (const [path, content, why] of files) {
    const made = yield create(path, content, why);
    if (!made.ok) return { status: 'failed', reason: `creating ${path} failed: ${made.text.split('\n')[0]}` };
  }
  const submitted = yield submit({ ...ARTIFACT_PATHS }, 'Submit the five artifact files.');
  if (!submitted.ok) return { status: 'failed', reason: `submit refused: ${submitted.text.split('\n')[0]}` };
  return { status: 'submitted' };
}

/** test_parser.py of a suite: the pytest `-rA` parser, the unittest one, or ssr's parser for the JS runner. */
function parserOf(suite: TestSuite, assets: InjectorAssets): string {
  if (suite.kind === 'js') return testFilesForRunner(suite.runner).testParser;
  return suite.kind === 'pytest' ? assets.pytestParser : assets.unittestParser;
}
