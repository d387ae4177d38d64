import { describe, expect, it } from 'vitest';
import type { GuardReport } from '../../../../src/harness/guard-report.js';
import type { TestReport } from '../../../../src/harness/test-report.js';
import { guardVerdict } from '../../../../src/roles/grading/guard-verdict.js';

const run = (statuses: TestReport['statuses'], guard?: GuardReport): TestReport => ({
  statuses, timedOut: false, exitCode: 0, durationMs: 1, parserDurationMs: 1, logBytes: 1, log: '', ...(guard ? { guard } : {}),
});
const guard = (outcomes: GuardReport['outcomes'], more: Partial<GuardReport> = {}): GuardReport => ({ sessions: 1, invalid: 0, tampered: [], outcomes, ...more });
const ALL = ['a', 'b'];

describe('guardVerdict', () => {
  it.each<[string, TestReport, boolean, { flags: string[]; fatal?: string; mismatched: string[] }]>([
    ['honest run, guarded original', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' })), true, { flags: [], mismatched: [] }],
    ['parser passes what the runner failed', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'failed' })), true, { flags: ['results-mismatch'], mismatched: ['b'] }],
    ['parser passes what the runner xfailed', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'xfailed' })), true, { flags: ['results-mismatch'], mismatched: ['b'] }],
    ['parser passes what the runner never ran', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed' })), true, { flags: ['results-mismatch'], mismatched: ['b'] }],
    ['no guard record (exited early)', run({ a: 'passed', b: 'passed' }, guard({}, { sessions: 0 })), true, { flags: ['guard-missing'], fatal: 'guard-missing', mismatched: ['a', 'b'] }],
    ['a forged record', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' }, { invalid: 1 })), true, { flags: ['guard-missing'], fatal: 'guard-missing', mismatched: ['a', 'b'] }],
    ['runner tampered', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' }, { tampered: ['_pytest.python.Function.runtest'] })), true, { flags: ['runner-tampered'], fatal: 'runner-tampered', mismatched: ['a', 'b'] }],
    ['unguarded original: the parser decides, flags still tell', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'failed' })), false, { flags: ['results-mismatch'], mismatched: [] }],
    ['unguarded original and no guard here', run({ a: 'passed', b: 'passed' }), false, { flags: [], mismatched: [] }],
  ])('%s', (_label, report, originalGuarded, expected) => {
    const verdict = guardVerdict(report, ALL, originalGuarded);
    expect(verdict.flags).toEqual(expected.flags);
    expect(verdict.fatal?.code).toBe(expected.fatal);
    expect(verdict.mismatched).toEqual(expected.mismatched);
  });
});
