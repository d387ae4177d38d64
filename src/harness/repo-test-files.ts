import type { TestRunner } from '../config/repos-schema.js';
import { readDefaultTestFiles } from './default-files.js';
import { readJsTestFiles } from './js-test-files.js';

/** The language family a runner's repos are written in. */
export type RunnerLanguage = 'python' | 'javascript';

/** The runner of a repo (`test.runner` in repos.yaml), pytest when none is set. */
export function runnerOf(repo: { testRunner?: TestRunner }): TestRunner {
  return repo.testRunner ?? 'pytest';
}

/** Python for pytest; JavaScript (which includes TypeScript) for the JS runners. */
export function runnerLanguage(runner: TestRunner): RunnerLanguage {
  return runner === 'pytest' ? 'python' : 'javascript';
}

/**
 * The test script and parser ssr runs a repo's whole suite with: the pytest `-rA` pair, or the
 * JS runner's pair from src/harness/defaults/js/. The same two files an artifact holds.
 */
export function testFilesForRunner(runner: TestRunner): { testScript: string; testParser: string } {
  return runner === 'pytest' ? readDefaultTestFiles() : readJsTestFiles(runner);
}

/** {@link testFilesForRunner} of a repo's runner. */
export function repoTestFiles(repo: { testRunner?: TestRunner }): { testScript: string; testParser: string } {
  return testFilesForRunner(runnerOf(repo));
}
