import { describe, expect, it } from 'vitest';
import type { StatusMap } from '../../../../src/harness/test-report.js';
import { EngineError } from '../../../../src/util/engine-error.js';
import type { StateRun } from '../../../../src/validator/state-runs.js';
import { asSelected, mergeSelected, selectionMisses } from '../../../../src/validator/selection/selected-view.js';

function ran(statuses: StatusMap): StateRun {
  return { status: 'ran', report: { statuses, timedOut: false, exitCode: 0, durationMs: 1, parserDurationMs: 1, logBytes: 10, log: '' } };
}
const statusesOf = (run: StateRun): StatusMap => (run.status === 'ran' ? run.report.statuses : {});

const O_FULL = { 'a::1': 'passed', 'a::2': 'passed', 'b::1': 'passed', 'c::1': 'passed' } as const;
const O_SEL = { 'a::1': 'passed', 'a::2': 'passed' } as const;

describe('mergeSelected', () => {
  it("reads the selected tests from the state's run and the rest from O's full run", () => {
    const merged = mergeSelected(ran(O_FULL), ran(O_SEL), ran({ 'a::1': 'failed' }));
    // a::2 was selected and is missing from the state's run: it stays missing (a crash counts as failed).
    expect(statusesOf(merged)).toEqual({ 'a::1': 'failed', 'b::1': 'passed', 'c::1': 'passed' });
  });

  it('passes a state that did not run through as it is', () => {
    const error: StateRun = { status: 'error', error: new EngineError('sandbox-failed', 'gone') };
    expect(mergeSelected(ran(O_FULL), ran(O_SEL), error)).toBe(error);
    expect(mergeSelected(ran(O_FULL), error, ran({}))).toBe(error);
  });
});

describe('selectionMisses', () => {
  it.each([
    ['nothing when the merged view of B is the full run of B', { 'a::1': 'failed', 'b::1': 'passed', 'c::1': 'passed' }, O_SEL, []],
    ['a left-out test the bug breaks', { 'a::1': 'failed', 'b::1': 'failed', 'c::1': 'passed' }, O_SEL, ['b::1']],
    ['a left-out test missing from the full run of B', { 'a::1': 'failed', 'b::1': 'passed' }, O_SEL, ['c::1']],
    ['a selected test that behaves differently on O when selected', { 'a::1': 'failed', 'b::1': 'passed', 'c::1': 'passed' }, { 'a::1': 'passed', 'a::2': 'failed' }, ['a::2']],
  ] as const)('finds %s', (_label, buggyFull, originalSelected, missed) => {
    const buggyMerged = { 'a::1': 'failed', 'b::1': 'passed', 'c::1': 'passed' } as const;
    expect(selectionMisses({ originalFull: O_FULL, originalSelected, buggyMerged, buggyFull })).toEqual(missed);
  });
});

describe('asSelected: the audit reads B\'s full run as the selection would have', () => {
  it('takes the selected tests from the full run and the rest from O, so a left-out test the bug broke is a miss', () => {
    const bFull = { 'a::1': 'failed', 'a::2': 'passed', 'b::1': 'failed', 'c::1': 'passed' } as const;
    const seen = asSelected(O_FULL, O_SEL, bFull);
    expect(seen).toEqual({ 'a::1': 'failed', 'a::2': 'passed', 'b::1': 'passed', 'c::1': 'passed' });
    expect(selectionMisses({ originalFull: O_FULL, originalSelected: O_SEL, buggyMerged: seen, buggyFull: bFull })).toEqual(['b::1']);
  });

  it('finds nothing missed when only selected tests change, and drops a test B has that the selection never held', () => {
    const bFull = { 'a::1': 'failed', 'a::2': 'passed', 'b::1': 'passed', 'c::1': 'passed', 'a::new': 'passed' } as const;
    const seen = asSelected(O_FULL, O_SEL, bFull);
    expect(selectionMisses({ originalFull: O_FULL, originalSelected: O_SEL, buggyMerged: seen, buggyFull: bFull })).toEqual(['a::new']);
    const { 'a::new': _, ...known } = bFull;
    expect(selectionMisses({ originalFull: O_FULL, originalSelected: O_SEL, buggyMerged: asSelected(O_FULL, O_SEL, known), buggyFull: known })).toEqual([]);
  });

  it('takes a JS id O never had from the full run when its file is one the selection ran (a file that no longer loads), and only then', () => {
    const oFull = { 'test/a.test.mjs > x': 'passed', 'test/b.test.mjs > y': 'passed' } as const;
    const oSel = { 'test/a.test.mjs > x': 'passed' } as const;
    // B: a.test.mjs no longer loads (the file itself is reported), and b.test.mjs, left out, reports a file-level failure too.
    const bFull = { 'test/a.test.mjs': 'failed', 'test/b.test.mjs > y': 'passed' } as const;
    expect(selectionMisses({ originalFull: oFull, originalSelected: oSel, buggyMerged: asSelected(oFull, oSel, bFull), buggyFull: bFull })).toEqual([]);
    const bAlso = { ...bFull, 'test/b.test.mjs': 'failed' } as const;
    expect(selectionMisses({ originalFull: oFull, originalSelected: oSel, buggyMerged: asSelected(oFull, oSel, bAlso), buggyFull: bAlso })).toEqual(['test/b.test.mjs']);
  });
});
