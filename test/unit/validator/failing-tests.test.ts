import { describe, expect, it } from 'vitest';
import { failingTestsCheck } from '../../../consistency-checks/failing-tests.js';
import type { StatusMap } from '../../../src/harness/test-report.js';
import { contextWithRuns } from './check-context.js';

/** Twelve tests, all passing on O: six in each of two files. */
const ORIGINAL: StatusMap = Object.fromEntries(
  ['a', 'b'].flatMap((file) => [1, 2, 3, 4, 5, 6].map((n) => [`tests/test_${file}.py::test_${n}`, 'passed' as const])),
);

function withoutFile(map: StatusMap, file: string): StatusMap {
  return Object.fromEntries(Object.entries(map).filter(([id]) => !id.startsWith(`tests/test_${file}.py::`)));
}

describe('failing-tests check: tests must run and fail, not vanish', () => {
  it.each([
    ['one test runs and fails', { ...ORIGINAL, 'tests/test_a.py::test_1': 'failed' }, {}, 'pass'],
    ['nothing collects: every test missing, none failed', {}, {}, 'fail'],
    ['nothing collects; the parser reports the collection error under the file id', { 'tests/test_a.py': 'failed' }, {}, 'fail'],
    ['one file does not import, the other runs clean', withoutFile(ORIGINAL, 'a'), {}, 'fail'],
    ['one file does not import, one test of the other fails', { ...withoutFile(ORIGINAL, 'a'), 'tests/test_b.py::test_1': 'failed' }, {}, 'pass'],
    ['two must fail, one ran and failed, five are missing', { ...withoutFile(ORIGINAL, 'a'), 'tests/test_b.py::test_1': 'failed' }, { min_failing_tests: 2 }, 'fail'],
    ['the bug breaks nothing', ORIGINAL, {}, 'fail'],
  ] as const)('%s → %s', async (_label, buggy, thresholds, expected) => {
    const verdict = await failingTestsCheck.run(contextWithRuns({ thresholds, runs: { original: ORIGINAL, buggy } }));
    expect(verdict.status, verdict.reason).toBe(expected);
  });

  it('says the tests did not run, and counts what is missing', async () => {
    const verdict = await failingTestsCheck.run(contextWithRuns({ runs: { original: ORIGINAL, buggy: {} } }));
    expect(verdict.reason).toMatch(/stops tests from running instead of making them fail: 12 of the 12 test\(s\) it breaks are missing/);
    expect(verdict.evidence).toMatchObject({ failing: 12, ranAndFailed: 0 });
  });

  it('holds JS ids to the same rule (a node:test file that fails to import reports only its file)', async () => {
    const original: StatusMap = { 'test/a.test.mjs > adds': 'passed', 'test/a.test.mjs > subtracts': 'passed', 'test/b.test.mjs > joins': 'passed' };
    const buggy: StatusMap = { 'test/a.test.mjs': 'failed', 'test/b.test.mjs > joins': 'passed' };
    const verdict = await failingTestsCheck.run(contextWithRuns({ artifact: { testFiles: ['test/a.test.mjs', 'test/b.test.mjs'] }, runs: { original, buggy } }));
    expect(verdict.status).toBe('fail');
    expect(verdict.evidence).toMatchObject({ missingTests: ['test/a.test.mjs > adds', 'test/a.test.mjs > subtracts'] });
  });
});
