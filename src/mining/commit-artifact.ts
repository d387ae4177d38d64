import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { TestRunner } from '../config/repos-schema.js';
import { testFilesForRunner } from '../harness/repo-test-files.js';
import type { MiningCandidate } from './classify-commit.js';
import type { RepoHistoryReader } from './repo-history-reader.js';

/**
 * A fix commit as ssr's five-file artifact, with the commit C as the original state O:
 * bug_inject.diff is C's code change reversed (O + it = the parent's code under C's tests: the
 * real bug), test_weaken.diff is C's test change reversed (the parent's tests, which the bug
 * passes), so the Solver is shown the commit's test change as for a synthetic bug. test_files.txt
 * lists the test files C adds or changes.
 *
 * The test script and parser are the repo runner's whole-suite pair (what the golden gate runs),
 * not a script restricted to those files as the procedural Injector writes: a real commit's test
 * files alone often hold fewer tests than `min_passing_tests`, and the Injector picks its oracle
 * files to hold enough, which a commit cannot. Tests C does not touch pass on both sides, so F is
 * still the tests C adds or changes that the parent's code fails.
 */
export async function commitArtifact(history: RepoHistoryReader, candidate: MiningCandidate, runner: TestRunner): Promise<BugArtifact> {
  const [bugInject, testWeaken] = await Promise.all([
    history.diff(candidate.sha, candidate.parent, candidate.codeFiles),
    history.diff(candidate.sha, candidate.parent, candidate.testFiles),
  ]);
  const { testScript, testParser } = testFilesForRunner(runner);
  return { bugInject, testWeaken, testFiles: [...candidate.testFiles], testScript, testParser };
}
