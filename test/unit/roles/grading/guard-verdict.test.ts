import { describe, expect, it } from 'vitest';
import { type GuardReport, isGuardedRun, toleratedTampering } from '../../../../src/harness/guard-report.js';
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
    ['test code swapped: its own code, before the runner\'s', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' }, { tampered: ['runner-patched:unittest.case.TestCase.assertEqual by p.py', 'test-code-replaced:tests/t.py::T.test_b'] })), true, { flags: ['runner-tampered'], fatal: 'test-code-replaced', mismatched: ['a', 'b'] }],
    ['another process spoke for the session', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' }, { tampered: ['guard-message-from-another-process:end'] })), true, { flags: ['runner-tampered'], fatal: 'guard-forged', mismatched: ['a', 'b'] }],
    ['a tracing hook', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' }, { tampered: ['trace-hook:sys.settrace by p.py'] })), true, { flags: ['runner-tampered'], fatal: 'tracing-hook', mismatched: ['a', 'b'] }],
    ['native code', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' }, { tampered: ['native-code:ctypes.dlopen by p.py'] })), true, { flags: ['runner-tampered'], fatal: 'native-code', mismatched: ['a', 'b'] }],
    ['memory probed', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' }, { tampered: ['memory-read:/proc/self/mem'] })), true, { flags: ['runner-tampered'], fatal: 'guard-probed', mismatched: ['a', 'b'] }],
    ['a test file written (seen by the guard)', run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' }, { tampered: ['test-file-write:tests/t.py'] })), true, { flags: ['runner-tampered', 'test-files-written'], fatal: 'test-files-written', mismatched: ['a', 'b'] }],
    ['a test file changed on disk, unguarded original: still −1', { ...run({ a: 'passed', b: 'passed' }), material: { mode: 'read-only', changes: ['added tests/test_x.py'] } }, false, { flags: ['test-files-written'], fatal: 'test-files-written', mismatched: [] }],
    ['honest run with its material intact', { ...run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' })), material: { mode: 'hash-only', changes: [] } }, true, { flags: [], mismatched: [] }],
  ])('%s', (_label, report, originalGuarded, expected) => {
    const verdict = guardVerdict(report, ALL, originalGuarded);
    expect(verdict.flags).toEqual(expected.flags);
    expect(verdict.fatal?.code).toBe(expected.fatal);
    expect(verdict.mismatched).toEqual(expected.mismatched);
  });

  describe("the repo's own reports, tolerated (boltons' gcutils walks the heap under its own tests)", () => {
    const own = 'guard-probed:gc.get_objects by boltons/gcutils.py';
    const originals = [guard({ a: 'passed' }, { tampered: [own, 'test-file-write:tests/t.py'] }), guard({ a: 'passed' }, { tampered: [own] }), undefined];

    it('are what O reported, pooled, never a write to test material', () => {
      expect(toleratedTampering(originals)).toEqual([own]);
      expect(isGuardedRun(originals[1], { a: 'passed' })).toBe(false);
      expect(isGuardedRun(originals[1], { a: 'passed' }, toleratedTampering(originals))).toBe(true);
    });

    it.each<[string, string[], { flags: string[]; fatal?: string }]>([
      ['an attempt repeating exactly them is held to the rest and passes', [own], { flags: [] }],
      ['the same walk from another file is still −1', [own, 'guard-probed:gc.get_objects by boltons/strutils.py'], { flags: ['runner-tampered'], fatal: 'guard-probed' }],
      ['another kind beside them is still −1', [own, 'native-code:ctypes.dlopen by boltons/gcutils.py'], { flags: ['runner-tampered'], fatal: 'native-code' }],
      ['a test file written is never tolerated', ['test-file-write:tests/t.py'], { flags: ['runner-tampered', 'test-files-written'], fatal: 'test-files-written' }],
    ])('%s', (_label, tampered, expected) => {
      const verdict = guardVerdict(run({ a: 'passed', b: 'passed' }, guard({ a: 'passed', b: 'passed' }, { tampered })), ALL, true, toleratedTampering(originals));
      expect(verdict.flags).toEqual(expected.flags);
      expect(verdict.fatal?.code).toBe(expected.fatal);
    });
  });
});
