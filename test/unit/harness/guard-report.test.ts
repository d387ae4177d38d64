import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isGuardedRun, readGuardRecords, type GuardOutcome } from '../../../src/harness/guard-report.js';

const KEY = 'k'.repeat(64);
const body = (outcomes: Record<string, GuardOutcome>, extra: { tampered?: string[]; foreignHooks?: string[] } = {}): string =>
  JSON.stringify({ version: 1, pid: 7, exitstatus: 0, outcomes, tampered: extra.tampered ?? [], foreignHooks: extra.foreignHooks ?? [] });
const record = (text: string, key = KEY): string => JSON.stringify({ body: text, mac: createHmac('sha256', key).update(text).digest('hex') });

describe('readGuardRecords', () => {
  it('merges valid records: any other outcome wins over a pass', () => {
    const report = readGuardRecords([record(body({ a: 'passed', b: 'passed', c: 'skipped' })), record(body({ a: 'failed', b: 'passed' }))], 2, KEY);
    expect(report).toEqual({ sessions: 2, invalid: 0, outcomes: { a: 'failed', b: 'passed', c: 'skipped' }, tampered: [] });
  });

  it.each<[string, string]>([
    ['signed with another key', record(body({ a: 'passed' }), 'x'.repeat(64))],
    ['a body changed after signing', record(body({ a: 'failed' })).replace('failed', 'passed')],
    ['not JSON', 'garbage'],
    ['a bad mac', JSON.stringify({ body: body({ a: 'passed' }), mac: '0'.repeat(64) })],
    ['a signed body of the wrong shape', record(JSON.stringify({ outcomes: { a: 'passed' } }))],
  ])('counts a record %s as invalid, not as a session', (_label, text) => {
    expect(readGuardRecords([text], 1, KEY)).toMatchObject({ sessions: 0, invalid: 1, outcomes: {} });
  });

  it('counts records the driver found but did not ship as invalid', () => {
    expect(readGuardRecords([record(body({}))], 9, KEY)).toMatchObject({ sessions: 1, invalid: 8 });
  });

  it('reports tampering and foreign hooks together', () => {
    const report = readGuardRecords([record(body({}, { tampered: ['_pytest.runner.call_and_report'], foreignHooks: ['pytest_runtest_makereport:pkg/x.py'] }))], 1, KEY);
    expect(report.tampered).toEqual(['_pytest.runner.call_and_report', 'pytest_runtest_makereport:pkg/x.py']);
  });
});

describe('isGuardedRun', () => {
  const guard = (outcomes: Record<string, GuardOutcome>, more: Partial<{ sessions: number; invalid: number; tampered: string[] }> = {}) => ({
    sessions: 1, invalid: 0, tampered: [], outcomes, ...more,
  });
  it.each<[string, ReturnType<typeof guard> | undefined, Record<string, string>, boolean]>([
    ['the runner passed every test the parser passed', guard({ a: 'passed', b: 'failed' }), { a: 'passed', b: 'failed' }, true],
    ['no guard at all (not run)', undefined, { a: 'passed' }, false],
    ['no session (another runner)', guard({}, { sessions: 0 }), { a: 'passed' }, false],
    ['an invalid record', guard({ a: 'passed' }, { invalid: 1 }), { a: 'passed' }, false],
    ['tampering on the original', guard({ a: 'passed' }, { tampered: ['x'] }), { a: 'passed' }, false],
    ['parser ids the runner does not know (a custom parser)', guard({ 'tests/t.py::a': 'passed' }), { a: 'passed' }, false],
    ['a parser pass the runner skipped', guard({ a: 'skipped' }), { a: 'passed' }, false],
  ])('%s → %s', (_label, report, statuses, expected) => {
    expect(isGuardedRun(report, statuses)).toBe(expected);
  });
});
