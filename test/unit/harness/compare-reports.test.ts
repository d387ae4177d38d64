import { describe, expect, it } from 'vitest';
import { classifyTests, TEST_TRANSITIONS, type TestTransition } from '../../../src/harness/compare-reports.js';
import type { StatusMap, TestStatus } from '../../../src/harness/test-report.js';

type Cell = TestStatus | undefined;

describe('classifyTests', () => {
  // One test id per row: its status before, after, and every list it must land in.
  it.each<[string, Cell, Cell, TestTransition[]]>([
    ['passes in both', 'passed', 'passed', ['PASS_TO_PASS']],
    ['breaks', 'passed', 'failed', ['PASS_TO_FAIL']],
    ['gets fixed', 'failed', 'passed', ['FAIL_TO_PASS']],
    ['fails in both', 'failed', 'failed', ['FAIL_TO_FAIL']],
    ['passed, then missing (missing counts as failed)', 'passed', undefined, ['MISSING_AFTER', 'PASS_TO_FAIL']],
    ['failed, then missing', 'failed', undefined, ['MISSING_AFTER', 'FAIL_TO_FAIL']],
    ['new and passing', undefined, 'passed', ['NEW_AFTER']],
    ['new and failing', undefined, 'failed', ['NEW_AFTER']],
  ])('%s: %s → %s', (_name, was, now, expected) => {
    const before: StatusMap = was ? { 't::x': was } : {};
    const after: StatusMap = now ? { 't::x': now } : {};
    const result = classifyTests(before, after);
    for (const kind of TEST_TRANSITIONS) {
      expect(result[kind], kind).toEqual(expected.includes(kind) ? ['t::x'] : []);
    }
  });

  it('sorts every list and handles many tests at once', () => {
    const before: StatusMap = { 'b::2': 'passed', 'a::1': 'passed', 'c::3': 'failed', 'z::gone': 'passed' };
    const after: StatusMap = { 'a::1': 'failed', 'b::2': 'failed', 'c::3': 'passed', 'n::new': 'passed' };
    expect(classifyTests(before, after)).toEqual({
      FAIL_TO_PASS: ['c::3'],
      PASS_TO_PASS: [],
      PASS_TO_FAIL: ['a::1', 'b::2', 'z::gone'],
      FAIL_TO_FAIL: [],
      MISSING_AFTER: ['z::gone'],
      NEW_AFTER: ['n::new'],
    });
  });

  it('is not fooled by ids that collide with Object.prototype members', () => {
    const before = Object.fromEntries([['constructor', 'passed']]) as StatusMap;
    const result = classifyTests(before, {});
    expect(result.PASS_TO_FAIL).toEqual(['constructor']);
    expect(result.MISSING_AFTER).toEqual(['constructor']);
  });

  it('returns empty lists for two empty maps', () => {
    const result = classifyTests({}, {});
    expect(Object.values(result).every((ids) => ids.length === 0)).toBe(true);
  });
});
