import { describe, expect, it } from 'vitest';
import type { HideEntry } from '../../../../src/policy/procedural/injector/select-tests.js';
import { firstRoundTargets, granularityOf } from '../../../../src/policy/procedural/injector/weaken-targets.js';
import { planWeakening } from '../../../../src/policy/procedural/injector/weaken-plan.js';

const entry = (qualifiedName: string, line: number | null, param?: string): HideEntry => ({
  test: { id: `tests/test_x.py::${qualifiedName.replace('.', '::')}${param ? `[${param}]` : ''}`, exc: 'AssertionError', line },
  location: { file: 'tests/test_x.py', qualifiedName, ...(param ? { param } : {}) },
});

const SOURCE = `def test_many():
    assert 0 + 0 == 0
    assert 2 + 2 == 4
    assert 5 + 5 == 10


def test_single():
    assert 1 == 1
`;

describe('first-round weakening targets: the smallest concealment first', () => {
  it('always tries the one failing assertion of a test, never by chance', () => {
    // Every seed used to draw whole-test deletion for about two tests in three.
    for (let i = 0; i < 20; i++) expect(firstRoundTargets([entry('test_many', 3)])).toEqual([{ qualifiedName: 'test_many', assertLine: 3 }]);
  });

  it.each([
    ['parametrized cases failing at one line', [entry('test_p', 7, 'a'), entry('test_p', 7, 'b')], [{ qualifiedName: 'test_p', assertLine: 7 }]],
    ['a test failing at two lines (two params)', [entry('test_p', 7, 'a'), entry('test_p', 9, 'b')], [{ qualifiedName: 'test_p' }]],
    ['a failure at no known line', [entry('test_q', null)], [{ qualifiedName: 'test_q' }]],
  ])('%s', (_name, entries, expected) => {
    expect(firstRoundTargets(entries)).toEqual(expected);
  });

  it('deletes one assert statement of a test with several, and the whole of a test with only one', () => {
    const plan = planWeakening(SOURCE, firstRoundTargets([entry('test_many', 3), entry('test_single', 8)]));
    expect(plan.deletedAssertions).toEqual(['test_many:3']);
    expect(plan.deletedTests).toEqual(['test_single']);
    expect(plan.after).toContain('assert 0 + 0 == 0');
    expect(plan.after).not.toContain('assert 2 + 2 == 4');
    expect(plan.after).not.toContain('def test_single');
  });
});

describe('granularityOf', () => {
  it.each([
    [[], ['f::test_a:3'], 'assertion'],
    [['f::test_b'], [], 'test'],
    [['f::test_b'], ['f::test_a:3'], 'mixed'],
    // Lost an assertion in round one, deleted whole in round two: a test.
    [['f::test_a'], ['f::test_a:3'], 'test'],
  ] as const)('tests %j, assertions %j → %s', (tests, assertions, expected) => {
    expect(granularityOf(tests, assertions)).toBe(expected);
  });
});
