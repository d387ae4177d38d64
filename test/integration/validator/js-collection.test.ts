import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import { parseTestFilesList } from '../../../src/artifact/test-files-list.js';
import { loadReposFile } from '../../../src/config/load-repos.js';
import { resolveRepo } from '../../../src/config/resolve-repo.js';
import { readJsTestFiles } from '../../../src/harness/js-test-files.js';
import { sumTestRuns, type TestRunCounts } from '../../../src/harness/test-run-counts.js';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import { BaselineCache } from '../../../src/validator/baseline-cache.js';
import { validateArtifact, type ValidateOptions } from '../../../src/validator/validate-artifact.js';
import { dockerTemplate, ROOT_REPOS_YAML } from '../../helpers/sandboxes.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/js-artifacts/', import.meta.url));

/** A jskit artifact of test/fixtures/js-artifacts/, run with ssr's node:test script and TAP parser. */
function jskitArtifact(name: string): BugArtifact {
  const read = (file: string): string => readFileSync(join(FIXTURES, name, file), 'utf8');
  return { bugInject: read('bug_inject.diff'), testWeaken: read('test_weaken.diff'), testFiles: parseTestFilesList(read('test_files.txt')).files, ...readJsTestFiles('node-test') };
}

/**
 * The collection rules on JS (real Docker, Node 18, jskit): a test file that fails to load under
 * node:test reports no test of its own, as a pytest file that does not collect. A "bug" that only
 * renames an export the tests import makes every test of that file vanish (none fails), and a
 * weakening that imports a name the module lacks stops its file instead of hiding a failure.
 */
describe('a test file that does not load is not a failing or a hidden test (node:test)', () => {
  let shared: ValidateOptions;
  const runs: TestRunCounts[] = [];

  beforeAll(async () => {
    const jskit = await resolveRepo('jskit', await loadReposFile(ROOT_REPOS_YAML));
    // Node starts slowly on a loaded shared machine: a limit well above the clean suite's time.
    const repo = { ...jskit, limits: { ...jskit.limits, test_timeout_s: 400 } };
    shared = { repo, template: await dockerTemplate(repo), provider: createProvider('docker'), queue: new PQueue({ concurrency: 2 }), baselines: new BaselineCache() };
  }, 900_000);

  // The two bugs share the run's cache: O's V8-traced run (a `coverage` run) and O's selected run
  // are made once, by whichever bug asks first.
  afterAll(() => {
    if (runs.length !== 2) return;
    expect(sumTestRuns(runs)).toMatchObject({ coverage: { full: 1, restricted: 0 }, original: { full: 2, restricted: 1 }, audit: { full: 2, restricted: 0 } });
  });

  it.concurrent.each([
    ['bug-breaks-import', 'failing-tests', /stops tests from running instead of making them fail/],
    ['weaken-breaks-collection', 'concealment', /no test of test\/collections\.test\.mjs runs on the weakened repo/],
  ])('%s is rejected by %s', async (name, check, reason) => {
    const result = await validateArtifact(jskitArtifact(name), shared);
    const failing = result.checks.find((c) => c.status !== 'pass');
    expect(result.infrastructureError, JSON.stringify(failing)).toBeUndefined();
    expect({ valid: result.valid, failedCheck: result.failedCheck }, JSON.stringify(failing)).toEqual({ valid: false, failedCheck: check });
    expect(failing?.reason).toMatch(reason);
    // Both bugs change a line of collections.mjs that only test/collections.test.mjs executes (V8
    // coverage, one Node process per test file): the other three files are left out of O's
    // selected run and W's, and the verdict is still the full suite's (B, the audit, runs in full).
    expect(result.selection).toEqual({ status: 'selected', by: 'coverage', keptTestFiles: 1, testFiles: 4 });
    expect(result.testRuns?.audit).toEqual({ full: 1, restricted: 0 });
    if (check === 'concealment') expect(result.testRuns?.weakened).toEqual({ full: 0, restricted: 1 });
    runs.push(result.testRuns ?? {});
  }, 1_500_000);
});
