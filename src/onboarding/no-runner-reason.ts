import { JS_LANGUAGES } from './detectors/js-languages.js';
import { KNOWN_JS_RUNNERS, readJsPackage } from './detectors/js-package.js';
import type { RepoFiles } from './repo-files.js';

/** Why no detector of the repo's language answered, and what to add so one does. */
export async function noRunnerReason(files: RepoFiles, language: string): Promise<string> {
  if (!JS_LANGUAGES.includes(language)) {
    return 'no test runner found: no test_*.py / *_test.py files, conftest.py, pytest configuration or doctest examples at HEAD; add tests pytest collects';
  }
  if ((await readJsPackage(files)) === undefined) {
    return `no test runner found: no package.json (or not a JSON object) at the repo root; ssr installs a ${language} repo's dependencies with npm ci and runs its suite with one of ${KNOWN_JS_RUNNERS.join(', ')}: add a package.json whose scripts.test runs the tests, and its package-lock.json`;
  }
  return `no test runner found: package.json has no scripts.test, and no config file, package.json key or dependency of ${KNOWN_JS_RUNNERS.filter((runner) => runner !== 'node-test').join(', ')}, nor test files importing node:test: set scripts.test to the command that runs the tests (e.g. "node --test")`;
}
