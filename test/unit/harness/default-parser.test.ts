import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultsDir } from '../../../src/harness/default-files.js';
import { statusMapSchema, type StatusMap } from '../../../src/harness/test-report.js';

const LOGS = join(import.meta.dirname, '..', '..', 'fixtures', 'logs');
const PARSER = join(defaultsDir(), 'test_parser.py');

/** Runs the real parser with the host's python3 (it is stdlib-only), log on stdin. */
function parse(log: string | Buffer): StatusMap {
  const stdout = execFileSync('python3', [PARSER], { input: log, encoding: 'utf8' });
  return statusMapSchema.parse(JSON.parse(stdout));
}

const readLog = (name: string): string => readFileSync(join(LOGS, name), 'utf8');

describe('default pytest -rA parser on real pytest 7.2 logs', () => {
  const outcomes = parse(readLog('pytest-outcomes.txt'));
  const id = (name: string): string => `tests/test_outcomes.py::${name}`;

  it.each<[string, 'passed' | 'failed' | 'omitted']>([
    ['test_passes', 'passed'],
    ['test_fails', 'failed'],
    ['test_raises', 'failed'],
    ['test_setup_error', 'failed'],
    // PASSED and then ERROR at teardown: failed wins.
    ['test_teardown_error', 'failed'],
    ['test_skipped', 'omitted'],
    ['test_marked_skip', 'omitted'],
    ['test_xfail', 'omitted'],
    // method §2: an unexpected pass of an xfail test is failed, strict or not.
    ['test_xpass', 'failed'],
    ['test_xpass_strict', 'failed'],
    ['test_param[a b]', 'passed'],
    ['test_param[x - y]', 'failed'],
    ['test_param[[nested]]', 'passed'],
    ['test_param[\\xfcn\\xef]', 'passed'],
    ['test_param[]', 'passed'],
    ['test_param_ids[one equals one]', 'passed'],
    ['test_param_ids[two vs three]', 'failed'],
    ['test_unbalanced[[]', 'failed'],
    ['test_unbalanced[]x]', 'passed'],
    ['TestGroup::test_method_ok', 'passed'],
    ['TestGroup::test_method_bad', 'failed'],
    ['TestGroup::TestInner::test_nested', 'passed'],
    ['test_prints_fake_summary_words', 'failed'],
    // Printed by a test (captured output above the summary), some after a fake header.
    ['test_fake_from_stdout', 'omitted'],
    ['test_other_fake', 'omitted'],
    ['test_fake_after_header', 'omitted'],
  ])('%s → %s', (name, expected) => {
    expect(outcomes[id(name)] ?? 'omitted').toBe(expected);
  });

  it('reports exactly the executed, non-skipped tests', () => {
    expect(Object.keys(outcomes)).toHaveLength(20);
  });

  it.each<[string, StatusMap]>([
    ['pytest-collection-error.txt', { 'tests/test_broken_import.py': 'failed' }],
    [
      'pytest-two-runs.txt',
      { 'tests/test_ok.py::test_one': 'passed', 'tests/test_ok.py::test_two': 'passed', 'tests/test_broken_import.py': 'failed' },
    ],
    ['pytest-quiet.txt', { 'tests/test_ok.py::test_one': 'passed', 'tests/test_ok.py::test_two': 'passed' }],
  ])('%s', (name, expected) => {
    expect(parse(readLog(name))).toEqual(expected);
  });

  it('reports nothing from a log cut off before pytest closed its summary (never guesses)', () => {
    const log = readLog('pytest-outcomes.txt');
    const cut = log.slice(0, log.lastIndexOf('FAILED tests/test_outcomes.py::TestGroup'));
    expect(parse(cut)).toEqual({});
  });

  it.each([
    ['an empty log', ''],
    ['a log that is not pytest output', 'Traceback (most recent call last):\n  oops\n'],
  ])('prints {} for %s', (_name, log) => {
    expect(parse(log)).toEqual({});
  });

  it('survives invalid UTF-8 and CRLF line ends', () => {
    const log = Buffer.concat([Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(readLog('pytest-quiet.txt').replace(/\n/g, '\r\n'))]);
    expect(parse(log)).toEqual({ 'tests/test_ok.py::test_one': 'passed', 'tests/test_ok.py::test_two': 'passed' });
  });
});
