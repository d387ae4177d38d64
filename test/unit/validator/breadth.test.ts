import { describe, expect, it } from 'vitest';
import { breadthCheck } from '../../../consistency-checks/breadth.js';
import type { StatusMap } from '../../../src/harness/test-report.js';
import { filesSpanned, testFileOf } from '../../../src/validator/test-file-of.js';
import { contextWithRuns } from './check-context.js';

/** `n` tests in each of `files` files: all pass on O; on B every one of them fails. */
function runs(files: number, perFile: number): { original: StatusMap; buggy: StatusMap; testFiles: string[] } {
  const original: StatusMap = { 'tests/test_other.py::test_ok': 'passed' };
  const buggy: StatusMap = { 'tests/test_other.py::test_ok': 'passed' };
  const testFiles = ['tests/test_other.py'];
  for (let f = 0; f < files; f++) {
    testFiles.push(`tests/test_${f}.py`);
    for (let t = 0; t < perFile; t++) {
      original[`tests/test_${f}.py::test_${t}`] = 'passed';
      buggy[`tests/test_${f}.py::test_${t}`] = 'failed';
    }
  }
  return { original, buggy, testFiles };
}

describe('breadth check', () => {
  it.each([
    ['a focused bug (3 tests, 1 file)', 1, 3, {}, 'pass'],
    ['exactly at both caps (40 tests in 8 files)', 8, 5, {}, 'pass'],
    ['too many tests (41 in 1 file)', 1, 41, {}, 'fail'],
    ['too many files (9 files, 1 test each)', 9, 1, {}, 'fail'],
    ['the 44-in-19 if/else swap of issue 14', 19, 3, {}, 'fail'],
    ['a raised file cap lets 9 files through', 9, 1, { max_failing_files: 9 }, 'pass'],
    ['a lowered test cap rejects 3 tests', 1, 3, { max_failing_tests: 2 }, 'fail'],
  ] as const)('%s → %s', async (_label, files, perFile, thresholds, expected) => {
    const { original, buggy, testFiles } = runs(files, perFile);
    const verdict = await breadthCheck.run(contextWithRuns({ artifact: { testFiles }, thresholds, runs: { original, buggy } }));
    expect(verdict.status, verdict.reason).toBe(expected);
    expect(verdict.evidence).toMatchObject({ failing: files * perFile, files });
  });

  it('names the cap it exceeded', async () => {
    const { original, buggy, testFiles } = runs(9, 1);
    const verdict = await breadthCheck.run(contextWithRuns({ artifact: { testFiles }, runs: { original, buggy } }));
    expect(verdict.reason).toMatch(/tests fail in 9 test files, more than max_failing_files \(8\)/);
  });
});

describe('testFileOf', () => {
  const files = ['tests/test_money.py', 'tests/unit/test_ledger.py'];
  it.each([
    ['tests/test_money.py::TestA::test_b[x-1]', 'tests/test_money.py'],
    ['tests.test_money.TestA.test_b', 'tests/test_money.py'],
    // unittest started inside tests/: ids are relative to it.
    ['unit.test_ledger.TestL.test_x', 'tests/unit/test_ledger.py'],
    ['test_ledger.TestL.test_x', 'tests/unit/test_ledger.py'],
    // No listed file: grouped by its module part.
    ['other.module.TestC.test_y', 'other.module'],
    // JS parsers: the file, then " > " and the block and test names (dots in names do not matter).
    ['test/collections.test.mjs > chunk > keeps a shorter last chunk', 'test/collections.test.mjs'],
    ['src/a.spec.ts > parses 1.5 as a float', 'src/a.spec.ts'],
    ['test/broken.test.mjs', 'test/broken.test.mjs'],
  ])('%s → %s', (id, file) => {
    expect(testFileOf(id, files)).toBe(file);
  });

  it('counts distinct files', () => {
    expect(filesSpanned(['tests.test_money.A.a', 'tests/test_money.py::b', 'tests/unit/test_ledger.py::c'], files)).toEqual(['tests/test_money.py', 'tests/unit/test_ledger.py']);
  });
});
