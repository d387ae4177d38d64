import { describe, expect, it } from 'vitest';
import type { SolverGrade } from '../../../src/roles/grade-solution.js';
import { gradeCode, gradeVerdict } from '../../../src/roles/grade-verdict.js';

const grade = (overrides: Partial<SolverGrade> = {}): SolverGrade => ({
  reward: -1, reason: '3 of the 90 tests that pass on the original repo do not pass', applied: 'git-apply', failingTests: ['t::a'], droppedTestSections: [], durationMs: 1, ...overrides,
});

describe('gradeCode', () => {
  it.each([
    ['no patch submitted', grade({ applied: null, reason: 'no patch was submitted' }), false, 'no-patch'],
    ['a patch that did not apply', grade({ applied: null, reason: 'the patch does not apply (…)' }), true, 'patch-does-not-apply'],
    ['tests still failing', grade(), true, 'tests-fail'],
    ['every oracle test passing', grade({ reward: 1, failingTests: [], reason: 'all 90 tests pass' }), true, 'tests-pass'],
    ['a reason that leads with its own code', grade({ applied: null, reason: 'binary-patch: the patch changes a binary file' }), true, 'binary-patch'],
    ['a reason whose first word merely has a colon', grade({ reason: 'note: odd' }), true, 'tests-fail'],
  ])('%s', (_name, input, submitted, code) => {
    expect(gradeCode(input, submitted)).toBe(code);
  });
});

describe('gradeVerdict', () => {
  it('leads the reason with the code once and maps dropped test-file sections', () => {
    const verdict = gradeVerdict(grade({ droppedTestSections: ['tests/test_x.py'] }), true);
    expect(verdict).toEqual({
      reward: -1, reason: 'tests-fail: 3 of the 90 tests that pass on the original repo do not pass', applied: 'git-apply', failingTests: ['t::a'],
      droppedSections: [{ path: 'tests/test_x.py', reason: 'test-file' }], flags: [], code: 'tests-fail',
    });
    expect(gradeVerdict(grade({ reason: 'tests-fail: already coded' }), true).reason).toBe('tests-fail: already coded');
  });
});
