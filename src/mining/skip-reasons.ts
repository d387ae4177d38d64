import { z } from 'zod';

/**
 * Why a commit of a repo's history is not a real bug, as a stable kebab code (`mined.jsonl`, the
 * summary's counts). The first six are decided from the history alone, on the host; the rest by
 * the commit's image, its golden gate and the validator, as for a synthetic bug.
 */
export const SKIP_REASONS = [
  'merge-commit',
  'root-commit',
  'shallow-boundary',
  'no-test-change',
  'no-code-change',
  'does-not-build',
  'does-not-apply',
  'tests-do-not-fail-before',
  'tests-cannot-run-before',
  'flaky',
  'too-broad',
  'rejected',
] as const;
export const skipReasonSchema = z.enum(SKIP_REASONS);
export type SkipReason = z.infer<typeof skipReasonSchema>;

/** One line per reason, for `ssr mine --help`, the summary and docs/real-bugs.md. */
export const SKIP_REASON_TEXT: Record<SkipReason, string> = {
  'merge-commit': 'a merge commit (its change is its parents\')',
  'root-commit': 'the first commit: no parent to hold the bug',
  'shallow-boundary': 'its parent is not in the clone (a shallow clone): fetch more history',
  'no-test-change': 'adds or changes no test file',
  'no-code-change': 'adds or changes no code file',
  'does-not-build': 'its image does not build, or its clean suite is refused by the golden gate',
  'does-not-apply': 'its reversed change does not apply or run as an artifact (existence, parser, test-script, min-files)',
  'tests-do-not-fail-before': 'the tests it adds or changes pass on the parent\'s code',
  'tests-cannot-run-before': 'the tests it adds do not even run on the parent\'s code (they import what it adds: a feature, not a fix)',
  flaky: 'its failing tests are not stable (quarantined by the golden gate, or order-dependent)',
  'too-broad': 'more failing tests or test files than the breadth cap allows',
  rejected: 'rejected by another consistency check (concealment; inverse redundancy is recorded, not enforced, on a real fix)',
};

/**
 * The validator's check that rejected a mined commit → why it is skipped. The failing-tests
 * check's evidence tells a fix whose tests pass before from a feature whose tests cannot run
 * before: enough tests broken, too few of them ran and failed (they were not even collected).
 */
export function reasonOfFailedCheck(check: string, evidence?: Record<string, unknown>): SkipReason {
  switch (check) {
    case 'failing-tests': {
      const { failing, ranAndFailed, minFailing } = (evidence ?? {}) as { failing?: number; ranAndFailed?: number; minFailing?: number };
      const cannotRun = failing !== undefined && ranAndFailed !== undefined && minFailing !== undefined && failing >= minFailing && ranAndFailed < minFailing;
      return cannotRun ? 'tests-cannot-run-before' : 'tests-do-not-fail-before';
    }
    case 'breadth':
      return 'too-broad';
    case 'order-independence':
      return 'flaky';
    case 'existence':
    case 'parser':
    case 'test-script':
    case 'min-files':
      return 'does-not-apply';
    default:
      return 'rejected';
  }
}
