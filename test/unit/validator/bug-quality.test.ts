import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import { describeBugQuality, weakeningOf } from '../../../src/validator/bug-quality.js';
import { TempGitRepo } from '../code/temp-git-repo.js';

const TESTS = `import unittest


class TestMoney(unittest.TestCase):
    def test_add(self):
        self.assertEqual(1 + 1, 2)
        self.assertEqual(2 + 2, 4)

    def test_sub(self):
        self.assertEqual(2 - 1, 1)


def test_plain():
    assert 3 * 3 == 9
    assert 4 * 4 == 16
`;

let repo: TempGitRepo;
beforeAll(() => {
  repo = TempGitRepo.create({ 'tests/test_money.py': TESTS });
});
afterAll(() => repo.dispose());

/** A real `git diff` of the test file after `edit`. */
function weaken(edit: (text: string) => string): string {
  repo.write('tests/test_money.py', edit(TESTS));
  const diff = repo.diff();
  repo.reset();
  return diff;
}

describe('weakeningOf (granularity read off a real test_weaken.diff)', () => {
  it.each([
    ['one assertion deleted', (t: string) => t.replace('        self.assertEqual(2 + 2, 4)\n', ''), 'assertion'],
    ['a plain assert deleted', (t: string) => t.replace('    assert 4 * 4 == 16\n', ''), 'assertion'],
    ['a whole method deleted', (t: string) => t.replace('    def test_sub(self):\n        self.assertEqual(2 - 1, 1)\n', ''), 'test'],
    ['a whole function deleted', (t: string) => t.replace(/\n\ndef test_plain\(\):\n.*\n.*\n$/, '\n'), 'test'],
    ['a test and another test’s assertion', (t: string) => t.replace('    def test_sub(self):\n        self.assertEqual(2 - 1, 1)\n', '').replace('    assert 4 * 4 == 16\n', ''), 'mixed'],
    // A changed assertion removes its old line: an assertion-level weakening.
    ['an expected value changed', (t: string) => t.replace('== 16', '!= 0'), 'assertion'],
  ])('%s → %s', (_name, edit, expected) => {
    expect(weakeningOf(weaken(edit))).toBe(expected);
  });

  it('is `other` for a diff that is not one', () => {
    expect(weakeningOf('not a diff')).toBe('other');
  });
});

const JS_TESTS = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

describe('chunk', () => {
  it('splits evenly', () => assert.deepEqual(chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]));
  it('keeps the rest', () => {
    assert.equal(chunk([1, 2, 3], 2).length, 2);
    expect(chunk([1], 1)).toEqual([[1]]);
  });
});
`;

describe('weakeningOf on JS / TS tests (node:test, Jest, tape)', () => {
  let js: TempGitRepo;
  beforeAll(() => {
    js = TempGitRepo.create({ 'test/chunk.test.mjs': JS_TESTS });
  });
  afterAll(() => js.dispose());
  const jsWeaken = (edit: (text: string) => string): string => {
    js.write('test/chunk.test.mjs', edit(JS_TESTS));
    const diff = js.diff();
    js.reset();
    return diff;
  };
  it.each([
    ['a one-line it() deleted', (t: string) => t.replace("  it('splits evenly', () => assert.deepEqual(chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]));\n", ''), 'test'],
    ['a multi-line it() deleted', (t: string) => t.replace(/ {2}it\('keeps the rest'[^]*?\n {2}\}\);\n/, ''), 'test'],
    ['an assert.* line deleted', (t: string) => t.replace('    assert.equal(chunk([1, 2, 3], 2).length, 2);\n', ''), 'assertion'],
    ['an expect() line deleted', (t: string) => t.replace('    expect(chunk([1], 1)).toEqual([[1]]);\n', ''), 'assertion'],
  ])('%s → %s', (_name, edit, expected) => {
    expect(weakeningOf(jsWeaken(edit))).toBe(expected);
  });
});

describe('describeBugQuality', () => {
  const artifact = (metadata?: Record<string, unknown>): BugArtifact => ({
    bugInject: '', testWeaken: weaken((t) => t.replace('        self.assertEqual(2 + 2, 4)\n', '')), testFiles: ['tests/test_money.py', 'tests/test_other.py'],
    testScript: '', testParser: '', ...(metadata ? { metadata } : {}),
  });

  it('takes the kind from the procedural operators and the breadth from FAIL_TO_PASS', () => {
    const quality = describeBugQuality(
      artifact({ operators: [{ operator: 'swap-arguments' }, { operator: 'negate-condition' }, { operator: 'swap-arguments' }], weakening: { granularity: 'test' } }),
      { valid: true, failToPass: ['tests/test_money.py::TestMoney::test_add', 'tests/test_money.py::test_plain', 'tests/test_other.py::test_z'] },
      'operator',
    );
    expect(quality).toEqual({ breadth: { failingTests: 3, files: 2 }, kind: 'negate-condition+swap-arguments', weakening: 'test' });
  });

  it('falls back to the strategy and the diff for an Injector that recorded neither (an LLM), and has no breadth when invalid', () => {
    expect(describeBugQuality(artifact(), { valid: false, failToPass: [] }, 'removal')).toEqual({ breadth: null, kind: 'removal', weakening: 'assertion' });
  });
});
