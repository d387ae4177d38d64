import { describe, expect, it } from 'vitest';
import type { SolverGrade } from '../../../src/roles/grade-solution.js';
import { gradeVerdict } from '../../../src/roles/grade-verdict.js';

const grade = (overrides: Partial<SolverGrade> = {}): SolverGrade => ({
  reward: -1, code: 'tests-fail', reason: '3 of the 90 tests that pass on the original repo do not pass', applied: 'git-apply', failingTests: ['t::a'],
  droppedTestSections: [], droppedSections: [], flags: [], durationMs: 1, ...overrides,
});

describe('gradeVerdict', () => {
  it('leads the reason with the grade code once and carries the dropped sections and flags as graded', () => {
    const dropped = [{ path: 'tests/test_x.py', reason: 'oracle-test-file' as const }, { path: 'setup.cfg', reason: 'runner-config' as const }];
    const verdict = gradeVerdict(grade({ droppedTestSections: ['tests/test_x.py'], droppedSections: dropped, flags: ['results-mismatch'] }));
    expect(verdict).toEqual({
      reward: -1, reason: 'tests-fail: 3 of the 90 tests that pass on the original repo do not pass', applied: 'git-apply', failingTests: ['t::a'],
      droppedSections: dropped, flags: ['results-mismatch'], code: 'tests-fail',
    });
    expect(Object.keys(verdict)).toEqual(['reward', 'reason', 'applied', 'failingTests', 'droppedSections', 'flags', 'code']);
    expect(gradeVerdict(grade({ reason: 'tests-fail: already coded' })).reason).toBe('tests-fail: already coded');
  });

  it.each([
    ['solved', 1, null],
    ['patch-does-not-apply', -1, null],
    ['no-patch', -1, null],
    ['guard-missing', -1, 'guard-missing'],
  ] as const)('keeps the code %s', (code, reward, flag) => {
    const verdict = gradeVerdict(grade({ code, reward, flags: flag ? [flag] : [] }));
    expect(verdict.code).toBe(code);
    expect(verdict.reason.startsWith(`${code}: `)).toBe(true);
  });
});
