import { describe, expect, it } from 'vitest';
import { locateTest, testFileOf } from '../../../../src/policy/procedural/injector/test-ids.js';
import { moduleOf, searchCommand, testScript } from '../../../../src/policy/procedural/injector/test-suite.js';

const FILES = new Set(['tests/test_money.py', 'tests/unit/test_ledger.py', 'test_top.py', 'tests/test_flat.py']);

describe('locateTest', () => {
  it.each([
    ['tests/test_money.py::test_add', { file: 'tests/test_money.py', qualifiedName: 'test_add' }],
    ['tests/test_money.py::TestAlloc::test_split', { file: 'tests/test_money.py', qualifiedName: 'TestAlloc.test_split' }],
    ['tests/test_money.py::TestA::TestB::test_x', { file: 'tests/test_money.py', qualifiedName: 'TestA.TestB.test_x' }],
    ['tests/test_money.py::test_fmt[-5-USD-($5.00)]', { file: 'tests/test_money.py', qualifiedName: 'test_fmt', param: '-5-USD-($5.00)' }],
    ['tests/test_money.py::test_p[a::b c]', { file: 'tests/test_money.py', qualifiedName: 'test_p', param: 'a::b c' }],
    ['tests/test_money.py::test_p[]', { file: 'tests/test_money.py', qualifiedName: 'test_p', param: '' }],
    ['test_top.py::test_one', { file: 'test_top.py', qualifiedName: 'test_one' }],
    ['tests/test_money.py', { file: 'tests/test_money.py', qualifiedName: '' }],
  ])('pytest %s', (id, expected) => {
    expect(locateTest(id, { kind: 'pytest' }, FILES)).toEqual(expected);
  });

  it.each([
    ['tests.test_money.TestMoney.test_add', '.', { file: 'tests/test_money.py', qualifiedName: 'TestMoney.test_add' }],
    ['tests.unit.test_ledger.TestL.test_post', '.', { file: 'tests/unit/test_ledger.py', qualifiedName: 'TestL.test_post' }],
    ['tests.test_money', '.', { file: 'tests/test_money.py', qualifiedName: '' }],
    ['tests.test_money.TestSetup', '.', { file: 'tests/test_money.py', qualifiedName: 'TestSetup' }],
    ['test_flat.TestFlat.test_ok', 'tests', { file: 'tests/test_flat.py', qualifiedName: 'TestFlat.test_ok' }],
  ])('unittest %s (start dir %s)', (id, startDir, expected) => {
    expect(locateTest(id, { kind: 'unittest', startDir }, FILES)).toEqual(expected);
  });

  it('knows no file for ids outside the list', () => {
    expect(testFileOf('other/test_x.py::test_a', { kind: 'pytest' }, FILES)).toBeNull();
    expect(testFileOf('pkg.test_x.T.test_a', { kind: 'unittest', startDir: '.' }, FILES)).toBeNull();
  });
});

describe('test commands', () => {
  it('runs selected pytest files verbosely', () => {
    expect(testScript({ kind: 'pytest' }, ['tests/test_money.py', 'tests/a b.py'])).toContain(
      "cd /repo && PYTHONDONTWRITEBYTECODE=1 python3 -m pytest -rA -p no:cacheprovider tests/test_money.py 'tests/a b.py'",
    );
    expect(searchCommand({ kind: 'pytest' })).toMatch(/^env COLUMNS=250 .*--continue-on-collection-errors$/);
  });

  it('names unittest modules relative to the start dir', () => {
    expect(moduleOf('tests/unit/test_ledger.py', '.')).toBe('tests.unit.test_ledger');
    expect(moduleOf('tests/test_flat.py', 'tests')).toBe('test_flat');
    expect(testScript({ kind: 'unittest', startDir: '.' }, ['tests/test_money.py'])).toContain('python3 -m unittest -v tests.test_money');
    expect(testScript({ kind: 'unittest', startDir: 'tests' }, ['tests/test_flat.py'])).toContain('env PYTHONPATH=tests${PYTHONPATH:+:$PYTHONPATH} python3 -m unittest -v test_flat');
    expect(searchCommand({ kind: 'unittest', startDir: 'tests' })).toContain('python3 -m unittest discover -v -s tests');
  });
});
