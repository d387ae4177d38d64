import { describe, expect, it } from 'vitest';
import { readJsTestFiles } from '../../../../src/harness/js-test-files.js';
import { jsTestScript } from '../../../../src/harness/js-test-script.js';
import { createProvider } from '../../../../src/sandbox/sandbox-factory.js';
import { BaselineCache } from '../../../../src/validator/baseline-cache.js';
import { jsCoverageSelection, jsRunnerOfScript, jsTestFilesOf, type JsCoveragePlanInput } from '../../../../src/validator/selection/js-coverage-plan.js';

const BUG = (path: string): string => `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;
const STATUSES = { 'test/a.test.mjs > x > y': 'passed', 'test/b.test.mjs > z': 'passed' } as const;

/** The plan's input; every case below answers before any sandbox is acquired (the provider is never asked). */
function input(over: Partial<JsCoveragePlanInput>): JsCoveragePlanInput {
  return {
    provider: createProvider('docker'),
    template: { backend: 'docker', repoId: 'jskit', ref: 'ssr-repo-jskit:test', limits: { memoryMb: 1024, cpus: 1, pids: 256 } },
    baselines: new BaselineCache(),
    bugInject: BUG('src/a.mjs'),
    testScript: readJsTestFiles('node-test').testScript,
    listed: ['test/a.test.mjs'],
    original: { statuses: STATUSES, durationMs: 1000 },
    testTimeoutS: 60,
    onTrace: () => {
      throw new Error('no traced run expected');
    },
    ...over,
  };
}

describe('JS selection by V8 coverage: what it reads, and why it runs the full suite', () => {
  it('reads the test files from JS ids, and refuses any other id', () => {
    expect(jsTestFilesOf(STATUSES)).toEqual(['test/a.test.mjs', 'test/b.test.mjs']);
    expect(jsTestFilesOf({ 'test/a.test.mjs': 'failed', 'test/a.test.mjs > x': 'passed' })).toEqual(['test/a.test.mjs']);
    expect(jsTestFilesOf({ 'tests/test_a.py::test_x': 'passed' })).toBeNull();
    expect(jsTestFilesOf({})).toBeNull();
  });

  it("knows ssr's runner scripts unchanged, and no other script", () => {
    expect(jsRunnerOfScript(readJsTestFiles('node-test').testScript)).toBe('node-test');
    expect(jsRunnerOfScript(readJsTestFiles('tape').testScript)).toBe('tape');
    expect(jsRunnerOfScript(readJsTestFiles('jest').testScript)).toBe('jest');
    expect(jsRunnerOfScript('cd /repo && node --test\n')).toBeNull();
    expect(jsRunnerOfScript(jsTestScript('node-test', ['test/a.test.mjs']))).toBeNull();
  });

  it.each([
    ['the script runs only listed files', { listed: ['test/a.test.mjs', 'test/b.test.mjs'] }, /runs only test_files.txt's 2 file/],
    ["a model's own script", { testScript: 'cd /repo && node --test\n' }, /not one of ssr's JS runner scripts/],
    ['Mocha', { testScript: readJsTestFiles('mocha').testScript }, /Mocha loads every test file into one process/],
    ['Jest', { testScript: readJsTestFiles('jest').testScript }, /Jest transforms every module/],
    ['Vitest', { testScript: readJsTestFiles('vitest').testScript }, /Vitest transforms every module/],
    ['a TypeScript change', { bugInject: BUG('src/a.ts') }, /changes src\/a\.ts, which is not plain JavaScript/],
  ])('runs the full suite for %s, with the reason', async (_label, over, reason) => {
    const plan = await jsCoverageSelection(input(over), ['test/a.test.mjs', 'test/b.test.mjs']);
    expect(plan.status).toBe('full');
    expect(plan.status === 'full' ? plan.reason : '').toMatch(/^coverage: /);
    expect(plan.status === 'full' ? plan.reason : '').toMatch(reason);
  });
});
