import type { StatusMap } from './test-report.js';

export const TEST_TRANSITIONS = [
  'FAIL_TO_PASS',
  'PASS_TO_PASS',
  'PASS_TO_FAIL',
  'FAIL_TO_FAIL',
  'MISSING_AFTER',
  'NEW_AFTER',
] as const;
export type TestTransition = (typeof TEST_TRANSITIONS)[number];

/** Test ids per transition, each list sorted. */
export type TestClassification = Record<TestTransition, string[]>;

/**
 * Classify every test by its status before and after a change (SWE-smith's four kinds plus the
 * two ways a test can appear or vanish).
 *
 * method §3 says a test missing from a map counts as failed, so a test that passed before and is
 * missing after is in MISSING_AFTER *and* PASS_TO_FAIL; one that failed before and is missing
 * after is in MISSING_AFTER and FAIL_TO_FAIL. A test that only exists after is in NEW_AFTER and
 * in no other list (there is no "before" to compare with).
 */
export function classifyTests(before: StatusMap, after: StatusMap): TestClassification {
  const result: TestClassification = {
    FAIL_TO_PASS: [],
    PASS_TO_PASS: [],
    PASS_TO_FAIL: [],
    FAIL_TO_FAIL: [],
    MISSING_AFTER: [],
    NEW_AFTER: [],
  };
  for (const [id, was] of Object.entries(before)) {
    const now = Object.hasOwn(after, id) ? after[id] : undefined;
    if (now === undefined) result.MISSING_AFTER.push(id);
    const passedAfter = now === 'passed';
    if (was === 'passed') result[passedAfter ? 'PASS_TO_PASS' : 'PASS_TO_FAIL'].push(id);
    else result[passedAfter ? 'FAIL_TO_PASS' : 'FAIL_TO_FAIL'].push(id);
  }
  for (const id of Object.keys(after)) {
    if (!Object.hasOwn(before, id)) result.NEW_AFTER.push(id);
  }
  for (const ids of Object.values(result)) ids.sort();
  return result;
}
