import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { TestRunner } from '../config/repos-schema.js';
import { testFilesForRunner } from '../harness/repo-test-files.js';
import { testScript, type TestSuite } from '../policy/procedural/injector/test-suite.js';
import type { MiningCandidate } from './classify-commit.js';
import type { RepoHistoryReader } from './repo-history-reader.js';

/** The runnable test files among the oracle files: pytest is given Python modules but conftest.py; a JS runner its code files. */
export function runnableTestFiles(runner: TestRunner, files: readonly string[]): string[] {
  if (runner === 'pytest') return files.filter((file) => file.endsWith('.py') && !file.endsWith('conftest.py'));
  return files.filter((file) => /\.[cm]?[jt]sx?$/.test(file));
}

/**
 * A fix commit as ssr's five-file artifact, with the commit C as the original state O:
 * bug_inject.diff is C's code change reversed (O + it = the parent's code under C's tests: the
 * real bug), test_weaken.diff is C's test change reversed (the parent's tests, which the bug
 * passes), so the Solver is shown the commit's test change as for a synthetic bug. The test
 * script and parser are the ones the procedural Injector writes for the repo's runner, restricted
 * to the test files C adds or changes. Null when no runnable test file is among them.
 */
export async function commitArtifact(history: RepoHistoryReader, candidate: MiningCandidate, runner: TestRunner): Promise<BugArtifact | null> {
  const runnable = runnableTestFiles(runner, candidate.testFiles);
  if (runnable.length === 0) return null;
  const suite: TestSuite = runner === 'pytest' ? { kind: 'pytest' } : { kind: 'js', runner };
  const [bugInject, testWeaken] = await Promise.all([
    history.diff(candidate.sha, candidate.parent, candidate.codeFiles),
    history.diff(candidate.sha, candidate.parent, candidate.testFiles),
  ]);
  return {
    bugInject,
    testWeaken,
    testFiles: [...candidate.testFiles],
    testScript: testScript(suite, runnable),
    testParser: testFilesForRunner(runner).testParser,
  };
}
