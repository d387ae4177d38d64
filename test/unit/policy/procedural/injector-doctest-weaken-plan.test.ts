import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../../../src/tools/line-match.js';
import { doctestExampleLines } from '../../../../src/code/python/doctest-examples.js';
import { planDoctestWeakening } from '../../../../src/policy/procedural/injector/doctest-weaken-plan.js';

// The module behind test/fixtures/logs/pytest-doctest.txt: double(3) fails at line 13, half(None) at 24.
const SOURCE = readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'python', 'doctest_mod.py'), 'utf8');
const FILE = 'pkg/mod.py';

/** Apply every planned edit as the edit tool would, checking each one matches exactly once. */
function applyEdits(source: string, edits: { search: string; replace: string }[]): string {
  let text = source;
  for (const edit of edits) {
    const outcome = applyEdit(text, edit.search, edit.replace);
    expect(outcome.status).toBe('edited');
    if (outcome.status === 'edited') text = outcome.text;
  }
  return text;
}

describe('planDoctestWeakening', () => {
  it('deletes the failing example and the later ones of its docstring, keeping the ones before', () => {
    const plan = planDoctestWeakening(SOURCE, FILE, [{ qualifiedName: 'pkg.mod.double', assertLine: 13 }]);
    expect(plan.deletedAssertions).toEqual(['pkg.mod.double:13']);
    expect(plan.deletedTests).toEqual([]);
    expect(plan.after).toContain('    >>> double(2)\n    4\n    """');
    expect(plan.after).not.toContain('>>> double(3)');
    expect(applyEdits(SOURCE, plan.edits)).toBe(plan.after);
  });

  it('deletes every example of a docstring named without a line (the test goes)', () => {
    const plan = planDoctestWeakening(SOURCE, FILE, [{ qualifiedName: 'pkg.mod.half' }]);
    expect(plan.deletedTests).toEqual(['pkg.mod.half']);
    expect(plan.after).toContain('    """Half of x.\n\n    """\n    return x // 2');
  });

  it('finds the module docstring by the module name', () => {
    const plan = planDoctestWeakening(SOURCE, FILE, [{ qualifiedName: 'pkg.mod' }]);
    expect(plan.after.startsWith('"""Helpers.\n\n"""')).toBe(true);
  });

  it('deletes examples only: the code and the other docstrings are untouched', () => {
    const plan = planDoctestWeakening(SOURCE, FILE, [{ qualifiedName: 'pkg.mod.double', assertLine: 11 }, { qualifiedName: 'pkg.mod.half', assertLine: 24 }]);
    const code = (text: string) => { const examples = doctestExampleLines(text); return text.split('\n').filter((line, i) => !examples.has(i + 1) && line.trim() !== ''); };
    expect(code(plan.after)).toEqual(code(SOURCE));
    expect(plan.after).toContain('>>> half(4)');
  });

  it('names a test it cannot find', () => {
    expect(planDoctestWeakening(SOURCE, FILE, [{ qualifiedName: 'pkg.mod.triple' }]).unresolved).toEqual(['pkg.mod.triple']);
  });

  it('plans edits that each match once where they are made, when two docstrings share an example', () => {
    const twice = (name: string) => `def ${name}():\n    """${name.toUpperCase()}.\n\n    >>> example()\n    'x'\n    """\n    return 1\n`;
    const source = `${twice('f')}\n\n${twice('g')}`;
    const plan = planDoctestWeakening(source, FILE, [{ qualifiedName: 'pkg.mod.f' }, { qualifiedName: 'pkg.mod.g' }]);
    expect(plan.edits).toHaveLength(2);
    expect(applyEdits(source, plan.edits)).toBe(plan.after);
    expect(plan.after).not.toContain('>>>');
  });
});
