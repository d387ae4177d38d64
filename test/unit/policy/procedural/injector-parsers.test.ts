import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusMapSchema, type StatusMap } from '../../../../src/harness/test-report.js';
import { assetsDir } from '../../../../src/policy/procedural/injector/injector-assets.js';
import { parseRunSummary } from '../../../../src/policy/procedural/injector/run-summary.js';
import { defaultsDir } from '../../../../src/harness/default-files.js';

const LOGS = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'logs');
const UNITTEST_PARSER = join(assetsDir(), 'parsers', 'unittest_parser.py');
const SUMMARIZE = join(assetsDir(), 'scripts', 'summarize_run.py');
const PYTEST_PARSER = join(defaultsDir(), 'test_parser.py');

const readLog = (name: string): string => readFileSync(join(LOGS, name), 'utf8');
/** The real parser, run with the host's python3 (stdlib only), log on stdin. */
function parse(parser: string, log: string): StatusMap {
  return statusMapSchema.parse(JSON.parse(execFileSync('python3', [parser], { input: log, encoding: 'utf8' })));
}

describe('unittest parser on real `python3 -m unittest -v` logs (Python 3.11)', () => {
  const outcomes = parse(UNITTEST_PARSER, readLog('unittest-outcomes.txt'));
  const id = (name: string) => `tests.test_outcomes.${name}`;

  it.each<[string, 'passed' | 'failed' | 'omitted']>([
    ['TestOutcomes.test_passes', 'passed'],
    ['TestOutcomes.test_fails', 'failed'],
    ['TestOutcomes.test_raises', 'failed'],
    ['TestOutcomes.test_name_error', 'failed'],
    ['TestOutcomes.test_skipped', 'omitted'],
    ['TestOutcomes.test_expected_failure', 'omitted'],
    ['TestOutcomes.test_unexpected_success', 'failed'],
    // The docstring's line sits between the test's name and its result.
    ['TestOutcomes.test_with_docstring', 'passed'],
    // Printed a fake result line; its own result word came on the next line.
    ['TestOutcomes.test_prints_fake_result', 'passed'],
    ['TestOutcomes.test_fake', 'omitted'],
    ['TestOutcomes.test_prints_to_stderr', 'passed'],
    ['TestOutcomes.test_subtests', 'failed'],
    ['TestSecondClass.test_passes', 'passed'],
    ['TestSetupClassError', 'failed'],
    ['TestSetupClassError.test_never_runs', 'omitted'],
  ])('%s → %s', (name, expected) => {
    expect(outcomes[id(name)] ?? 'omitted').toBe(expected);
  });

  it('reports a module that fails to import under the module id', () => {
    expect(outcomes['tests.test_broken_import']).toBe('failed');
    expect(Object.keys(outcomes)).toHaveLength(12);
  });

  it('reads a clean run, ids below a start dir, and every run of a multi-run log', () => {
    expect(parse(UNITTEST_PARSER, readLog('unittest-ok.txt'))).toEqual({ 'tests.test_outcomes.TestSecondClass.test_passes': 'passed' });
    expect(parse(UNITTEST_PARSER, readLog('unittest-flat.txt'))).toEqual({ 'test_flat.TestFlat.test_bad': 'failed', 'test_flat.TestFlat.test_ok': 'passed' });
    expect(parse(UNITTEST_PARSER, readLog('unittest-two-runs.txt'))).toEqual({
      'tests.test_broken_import': 'failed',
      'tests.test_outcomes.TestSecondClass.test_passes': 'passed',
    });
  });

  it('gives the same ids for the pre-3.11 format (method not repeated in the parentheses)', () => {
    const old = 'test_a (tests.test_x.TestX) ... ok\ntest_b (tests.test_x.TestX) ... FAIL\n\n' +
      '======================================================================\nFAIL: test_b (tests.test_x.TestX)\n' +
      '----------------------------------------------------------------------\nAssertionError\n\n' +
      '----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n';
    expect(parse(UNITTEST_PARSER, old)).toEqual({ 'tests.test_x.TestX.test_a': 'passed', 'tests.test_x.TestX.test_b': 'failed' });
  });

  it('prints the same map twice (deterministic) and {} for an empty log', () => {
    const log = readLog('unittest-outcomes.txt');
    expect(execFileSync('python3', [UNITTEST_PARSER], { input: log })).toEqual(execFileSync('python3', [UNITTEST_PARSER], { input: log }));
    expect(parse(UNITTEST_PARSER, '')).toEqual({});
  });
});

describe('summarize_run.py on real logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-summary-'));
  function summarize(kind: 'pytest' | 'unittest', log: string, baseline?: StatusMap, extra: string[] = []): string {
    const logPath = join(dir, 'run.log');
    const statusPath = join(dir, 'run.json');
    writeFileSync(logPath, log);
    writeFileSync(statusPath, JSON.stringify(parse(kind === 'pytest' ? PYTEST_PARSER : UNITTEST_PARSER, log)));
    const args = [SUMMARIZE, '--kind', kind, '--log', logPath, '--statuses', statusPath, ...extra];
    if (baseline) {
      writeFileSync(join(dir, 'o.json'), JSON.stringify(baseline));
      args.push('--baseline', join(dir, 'o.json'));
    }
    return execFileSync('python3', args, { encoding: 'utf8' });
  }

  it('counts per file and names each failure with its exception (pytest)', () => {
    const summary = parseRunSummary(summarize('pytest', readLog('pytest-outcomes.txt')))!;
    expect(summary.passed + summary.failed).toBe(20);
    expect(summary.groups.get('tests/test_outcomes.py')).toEqual({ passed: summary.passed, failed: summary.failed });
    expect(summary.failures).toContainEqual({ id: 'tests/test_outcomes.py::test_fails', exc: 'AssertionError' });
    expect(summary.failures.find((f) => f.id === 'tests/test_outcomes.py::test_raises')?.exc).toMatch(/Error$/);
  });

  it('lists tests broken against a baseline, a collection error as such (pytest)', () => {
    // Without --continue-on-collection-errors pytest stops: the other file's tests go missing too.
    const baseline: StatusMap = { 'tests/test_ok.py::test_one': 'passed', 'tests/test_broken_import.py::test_never_collected': 'passed' };
    const summary = parseRunSummary(summarize('pytest', readLog('pytest-collection-error.txt'), baseline))!;
    expect(summary.broken).toEqual([
      { id: 'tests/test_broken_import.py::test_never_collected', exc: 'missing', line: null },
      { id: 'tests/test_ok.py::test_one', exc: 'missing', line: null },
      { id: 'tests/test_broken_import.py', exc: 'collection', line: null },
    ]);
  });

  it('names unittest failures by exception class, a failed import as collection', () => {
    const summary = parseRunSummary(summarize('unittest', readLog('unittest-outcomes.txt')))!;
    const exc = Object.fromEntries(summary.failures.map((f) => [f.id, f.exc]));
    expect(exc).toMatchObject({
      'tests.test_broken_import': 'collection',
      'tests.test_outcomes.TestOutcomes.test_fails': 'AssertionError',
      'tests.test_outcomes.TestOutcomes.test_name_error': 'NameError',
      'tests.test_outcomes.TestOutcomes.test_raises': 'ValueError',
    });
    expect(summary.groups.get('tests.test_outcomes')).toEqual({ passed: 5, failed: 5 });
  });

  it('gives a failing doctest the line of its failing example (pytest --doctest-modules)', () => {
    const baseline: StatusMap = { 'pkg/mod.py::pkg.mod': 'passed', 'pkg/mod.py::pkg.mod.double': 'passed', 'pkg/mod.py::pkg.mod.half': 'passed' };
    const summary = parseRunSummary(summarize('pytest', readLog('pytest-doctest.txt'), baseline))!;
    expect(summary.broken).toEqual([
      { id: 'pkg/mod.py::pkg.mod.double', exc: 'Error', line: 13 },
      { id: 'pkg/mod.py::pkg.mod.half', exc: 'Error', line: 24 },
    ]);
  });

  it('cuts long lists and says how much it left out', () => {
    const summary = parseRunSummary(summarize('unittest', readLog('unittest-outcomes.txt'), undefined, ['--limit', '2']))!;
    expect(summary.failures).toHaveLength(2);
    expect(summary.more).toBe(5);
  });
});
