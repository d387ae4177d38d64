import { describe, expect, it } from 'vitest';
import { hasSyntaxErrors, parsePython } from '../../../../src/code/python/parse-python.js';
import { planWeakening } from '../../../../src/policy/procedural/injector/weaken-plan.js';
import { applyEdit } from '../../../../src/tools/line-match.js';

const SOURCE = `import pytest

from lib import add


def test_add():
    assert add(1, 2) == 3


# Negative numbers too.
@pytest.mark.parametrize("a, b, c", [(1, -1, 0), (-2, -2, -4)])
def test_add_negative(a, b, c):
    assert add(a, b) == c


def test_many():
    assert add(0, 0) == 0
    assert add(2, 2) == 4
    assert add(5, 5) == 10


class TestGroup:
    """Grouped tests."""

    def test_one(self):
        assert add(1, 0) == 1

    def test_two(self):
        assert add(1, 1) == 2


class TestKeep:
    def test_a(self):
        assert add(3, 3) == 6

    def test_b(self):
        assert add(4, 4) == 8
`;

/** Apply every planned edit as the edit tool would, checking each one matches exactly once. */
function applyPlan(source: string, edits: { search: string; replace: string }[]): string {
  let text = source;
  for (const edit of edits) {
    const outcome = applyEdit(text, edit.search, edit.replace);
    expect(outcome.status).toBe('edited');
    if (outcome.status === 'edited') text = outcome.text;
  }
  return text;
}

describe('planWeakening', () => {
  it('deletes a parametrized test with its decorator and the comment above it', () => {
    const plan = planWeakening(SOURCE, [{ qualifiedName: 'test_add_negative' }]);
    const after = applyPlan(SOURCE, plan.edits);
    expect(after).toBe(plan.after);
    expect(after).not.toContain('test_add_negative');
    expect(after).not.toContain('Negative numbers');
    expect(after).not.toContain('parametrize');
    expect(after).toContain('def test_add():\n    assert add(1, 2) == 3\n\n\ndef test_many():');
    expect(plan.deletedTests).toEqual(['test_add_negative']);
  });

  it('deletes a class whose every test goes, docstring and all', () => {
    const plan = planWeakening(SOURCE, [{ qualifiedName: 'TestGroup.test_one' }, { qualifiedName: 'TestGroup.test_two' }]);
    const after = applyPlan(SOURCE, plan.edits);
    expect(after).not.toContain('class TestGroup');
    expect(after).not.toContain('Grouped tests');
    expect(after).toContain('class TestKeep');
    expect(hasSyntaxErrors(parsePython(after))).toBe(false);
  });

  it('deletes one method of a class and keeps the class valid', () => {
    const plan = planWeakening(SOURCE, [{ qualifiedName: 'TestKeep.test_a' }]);
    const after = applyPlan(SOURCE, plan.edits);
    expect(after).toContain('class TestKeep:\n    def test_b(self):');
    expect(hasSyntaxErrors(parsePython(after))).toBe(false);
  });

  it('deletes only the failing assertion of a test with several', () => {
    const line = SOURCE.split('\n').indexOf('    assert add(2, 2) == 4') + 1;
    const plan = planWeakening(SOURCE, [{ qualifiedName: 'test_many', assertLine: line }]);
    const after = applyPlan(SOURCE, plan.edits);
    expect(after).toContain('def test_many():\n    assert add(0, 0) == 0\n    assert add(5, 5) == 10\n');
    expect(plan.deletedAssertions).toEqual([`test_many:${line}`]);
    expect(plan.deletedTests).toEqual([]);
  });

  it('deletes the whole test when the failing line is not one of several assertions', () => {
    const line = SOURCE.split('\n').indexOf('    assert add(1, 2) == 3') + 1;
    const plan = planWeakening(SOURCE, [{ qualifiedName: 'test_add', assertLine: line }]);
    expect(plan.deletedTests).toEqual(['test_add']);
    expect(applyPlan(SOURCE, plan.edits)).not.toContain('def test_add():');
  });

  it('never comments anything out, merges nearby deletions and reports unknown names', () => {
    const plan = planWeakening(SOURCE, [{ qualifiedName: 'test_add' }, { qualifiedName: 'test_many' }, { qualifiedName: 'test_missing' }]);
    expect(plan.edits).toHaveLength(1);
    expect(plan.unresolved).toEqual(['test_missing']);
    for (const edit of plan.edits) expect(edit.replace).not.toMatch(/^\s*#\s*(def|assert)/m);
    const after = applyPlan(SOURCE, plan.edits);
    expect(hasSyntaxErrors(parsePython(after))).toBe(false);
    expect(after.startsWith('import pytest\n\nfrom lib import add\n\n\n# Negative numbers too.')).toBe(true);
  });

  it('handles unittest methods (self.assert… calls)', () => {
    const source = 'import unittest\n\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(1, 1)\n        self.assertEqual(2, 3)\n\n    def test_y(self):\n        self.assertTrue(True)\n';
    const plan = planWeakening(source, [{ qualifiedName: 'T.test_x', assertLine: 7 }]);
    expect(applyPlan(source, plan.edits)).toContain('    def test_x(self):\n        self.assertEqual(1, 1)\n\n    def test_y');
  });
});

describe('planWeakening layout', () => {
  it('leaves no blank line under a class header when its first tests go', () => {
    const source = 'class T:\n    def test_a(self):\n        assert 1\n\n    def test_b(self):\n        assert 2\n\n    def test_c(self):\n        assert 3\n';
    const plan = planWeakening(source, [{ qualifiedName: 'T.test_a' }, { qualifiedName: 'T.test_b' }]);
    expect(plan.after).toBe('class T:\n    def test_c(self):\n        assert 3\n');
  });
});

describe('planWeakening spacing', () => {
  it('keeps two blank lines between the code around a deleted class', () => {
    const source = 'class A:\n    def test_a(self):\n        pass\n\n\nclass B:\n    def test_b(self):\n        assert 0\n\n\nclass C:\n    def test_c(self):\n        pass\n';
    const plan = planWeakening(source, [{ qualifiedName: 'B.test_b' }]);
    expect(plan.after).toBe('class A:\n    def test_a(self):\n        pass\n\n\nclass C:\n    def test_c(self):\n        pass\n');
    expect(plan.deletedTests).toEqual(['B.test_b', 'B']);
  });

  it('plans edits that each match once where they are made, when a deleted test repeats an assertion further up', () => {
    const filler = Array.from({ length: 30 }, (_, i) => `def test_filler_${i}():\n    assert add(${i}, 0) == ${i}\n`).join('\n\n');
    const source = `def test_a():\n    assert add(0, 1) == 1\n    assert add(1, 1) == 2\n\n\n${filler}\n\ndef test_b():\n    assert add(1, 1) == 2\n`;
    const plan = planWeakening(source, [{ qualifiedName: 'test_a', assertLine: 3 }, { qualifiedName: 'test_b' }]);
    expect(plan.edits).toHaveLength(2);
    expect(plan.deletedAssertions).toEqual(['test_a:3']);
    expect(applyPlan(source, plan.edits)).toBe(plan.after);
  });
});
