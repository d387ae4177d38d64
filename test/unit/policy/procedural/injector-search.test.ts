import { describe, expect, it } from 'vitest';
import { combineChanges, uniqueTests, type KeptChange } from '../../../../src/policy/procedural/injector/combine-bugs.js';
import { judgeAttempt, MAX_BROKEN } from '../../../../src/policy/procedural/injector/judge-attempt.js';
import type { RepoFacts } from '../../../../src/policy/procedural/injector/repo-facts.js';
import { failsOnBehaviour, parseRunSummary } from '../../../../src/policy/procedural/injector/run-summary.js';
import { selectTests } from '../../../../src/policy/procedural/injector/select-tests.js';

function facts(perFile: Record<string, [number, number]>): RepoFacts {
  const files = Object.keys(perFile);
  return {
    sourceFiles: new Map(),
    testFiles: new Set(files),
    codeFiles: ['lib/a.py'],
    suite: { kind: 'pytest' },
    baseline: parseRunSummary('@@run passed=1 failed=0')!,
    perFile: new Map(files.map((f) => [f, { passed: perFile[f]![0], failed: perFile[f]![1] }])),
    coverage: null,
    runLimitS: 30,
  };
}

const FACTS = facts({ 'tests/test_a.py': [12, 0], 'tests/test_b.py': [30, 0], 'tests/test_flaky.py': [5, 1], 'tests/test_c.py': [3, 0] });
const run = (broken: string[], extra = '') => parseRunSummary([`@@run passed=10 failed=${broken.length}`, ...broken.map((b) => `@@broken ${b}`), extra].join('\n'));

describe('parseRunSummary', () => {
  it('reads counts, groups, failures, broken tests and markers', () => {
    const summary = parseRunSummary(
      ['@@exit 1', 'noise', '@@run passed=3 failed=2', '@@group tests/test_a.py passed=3 failed=1', '@@fail tests/test_a.py::t\tValueError',
        '@@broken tests/test_a.py::t[x y]\tAssertionError\t12', '@@broken tests/test_a.py::u\tmissing\t-', '@@more 7'].join('\n'),
    )!;
    expect(summary).toMatchObject({ passed: 3, failed: 2, more: 7 });
    expect(summary.groups.get('tests/test_a.py')).toEqual({ passed: 3, failed: 1 });
    expect(summary.failures).toEqual([{ id: 'tests/test_a.py::t', exc: 'ValueError' }]);
    expect(summary.broken).toEqual([{ id: 'tests/test_a.py::t[x y]', exc: 'AssertionError', line: 12 }, { id: 'tests/test_a.py::u', exc: 'missing', line: null }]);
    expect(summary.markers.get('exit')).toBe('1');
  });

  it('is null without a run line (the parser or the run failed)', () => {
    expect(parseRunSummary('Traceback ...')).toBeNull();
  });

  it.each([
    ['AssertionError', true], ['ValueError', true], ['TypeError', true], ['CsvFormatError', true],
    ['NameError', false], ['ImportError', false], ['ModuleNotFoundError', false], ['UnboundLocalError', false], ['missing', false], ['collection', false],
  ])('%s fails on behaviour: %s', (exc, expected) => {
    expect(failsOnBehaviour({ id: 'x', exc, line: null })).toBe(expected);
  });
});

describe('judgeAttempt', () => {
  it.each([
    ['accepts assertion failures in a clean file', run(['tests/test_a.py::t1\tAssertionError\t3']), 1, 'accepted'],
    ['needs min_failing_tests behavioural failures', run(['tests/test_a.py::t1\tAssertionError\t3']), 2, 'rejected'],
    ['refuses name errors only', run(['tests/test_a.py::t1\tNameError\t3', 'tests/test_a.py::t2\tUnboundLocalError\t5']), 1, 'rejected'],
    ['refuses a module that no longer imports', run(['tests/test_a.py::t1\tAssertionError\t3', 'tests/test_b.py\tcollection\t-']), 1, 'rejected'],
    ['ignores failures in files that fail on O', run(['tests/test_flaky.py::t\tAssertionError\t3']), 1, 'rejected'],
    ['refuses a change nobody notices', run([]), 1, 'rejected'],
    ['refuses a change that does not apply', run([], '@@apply-failed'), 1, 'rejected'],
    ['refuses a change that breaks too much', run(Array.from({ length: MAX_BROKEN + 1 }, (_, i) => `tests/test_b.py::t${i}\tAssertionError\t1`)), 1, 'rejected'],
    ['refuses a missing run', null, 1, 'rejected'],
  ])('%s', (_name, summary, minFailing, status) => {
    expect(judgeAttempt(summary, FACTS, minFailing).status).toBe(status);
  });

  it.each([
    ['within both caps', { maxFailingTests: 3, maxFailingFiles: 2 }, 'accepted'],
    ['more tests than max_failing_tests', { maxFailingTests: 2, maxFailingFiles: 2 }, 'rejected'],
    ['more files than max_failing_files', { maxFailingTests: 3, maxFailingFiles: 1 }, 'rejected'],
  ])('holds the validator breadth cap: %s', (_name, breadth, status) => {
    const summary = run(['tests/test_a.py::t1\tAssertionError\t3', 'tests/test_a.py::t2\tAssertionError\t4', 'tests/test_b.py::t3\tAssertionError\t5']);
    const verdict = judgeAttempt(summary, FACTS, 1, breadth);
    expect(verdict.status).toBe(status);
    if (verdict.status === 'rejected') expect(verdict.reason).toMatch(/too blunt/);
  });

  it('keeps the behavioural ids only', () => {
    const verdict = judgeAttempt(run(['tests/test_a.py::t1\tAssertionError\t3', 'tests/test_a.py::t2\tNameError\t4']), FACTS, 1);
    expect(verdict).toMatchObject({ status: 'accepted', behavioural: ['tests/test_a.py::t1'] });
  });
});

describe('combineChanges', () => {
  const change = (file: string, behavioural: string[]): KeptChange<string> => ({ file, behavioural, value: file });

  it('takes the first kept change for a one-file bug', () => {
    expect(combineChanges([change('a.py', ['t1']), change('b.py', ['t2'])], 1)?.map((c) => c.file)).toEqual(['a.py']);
  });

  it.each([
    ['distinct files with their own tests', [change('a.py', ['t1', 't2']), change('b.py', ['t2', 't3'])], ['a.py', 'b.py']],
    ['skips a second change in the same file', [change('a.py', ['t1']), change('a.py', ['t2']), change('b.py', ['t3'])], ['a.py', 'b.py']],
    ['skips a change whose tests another covers', [change('a.py', ['t1', 't2']), change('b.py', ['t2']), change('c.py', ['t3'])], ['a.py', 'c.py']],
  ])('two files: %s', (_name, kept, files) => {
    expect(combineChanges(kept, 2)?.map((c) => c.file)).toEqual(files);
  });

  it('is null until enough files can each matter', () => {
    expect(combineChanges([change('a.py', ['t1']), change('b.py', ['t1'])], 2)).toBeNull();
    expect(combineChanges([change('a.py', ['t1'])], 2)).toBeNull();
  });

  it('names the tests only one change breaks', () => {
    const set = [change('a.py', ['t1', 't2']), change('b.py', ['t2'])];
    expect(uniqueTests(set[0]!, set)).toEqual(['t1']);
    expect(uniqueTests(set[1]!, set)).toEqual([]);
  });
});

describe('selectTests', () => {
  const broken = (id: string, exc = 'AssertionError') => ({ id, exc, line: 3 });

  it('takes the files of the behavioural failures when they hold enough passing tests', () => {
    const selection = selectTests(FACTS, [broken('tests/test_a.py::t1'), broken('tests/test_a.py::t2', 'NameError')], ['tests/test_a.py::t1'], 10)!;
    expect(selection.files).toEqual(['tests/test_a.py']);
    expect(selection.passingOnOriginal).toBe(12);
    expect(selection.hide.get('tests/test_a.py')?.map((e) => e.test.id)).toEqual(['tests/test_a.py::t1', 'tests/test_a.py::t2']);
  });

  it('tops up with the largest clean files, never one failing on O', () => {
    const selection = selectTests(FACTS, [broken('tests/test_c.py::t1')], ['tests/test_c.py::t1'], 40)!;
    expect(selection.files).toEqual(['tests/test_c.py', 'tests/test_b.py', 'tests/test_a.py']);
    expect(selection.passingOnOriginal).toBe(45);
  });

  it('is null when the clean files cannot reach min_passing_tests or nothing fails on behaviour', () => {
    expect(selectTests(FACTS, [broken('tests/test_c.py::t1')], ['tests/test_c.py::t1'], 100)).toBeNull();
    expect(selectTests(FACTS, [broken('tests/test_flaky.py::t1')], ['tests/test_flaky.py::t1'], 1)).toBeNull();
  });

  it('needs not hide tests that just went missing', () => {
    const selection = selectTests(FACTS, [broken('tests/test_a.py::t1'), broken('tests/test_a.py::t9', 'missing')], ['tests/test_a.py::t1'], 1)!;
    expect(selection.hide.get('tests/test_a.py')?.map((e) => e.test.id)).toEqual(['tests/test_a.py::t1']);
  });
});
