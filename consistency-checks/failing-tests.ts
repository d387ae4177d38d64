import { brokenByBug, fail, parserFailureVerdict, pass, passedIds, reportOf, sample, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck } from '../src/validator/check-types.js';

/**
 * SPEC §3.5 failing tests: on B at least `min_failing_tests` tests that passed on O fail
 * (missing from the map counts as failed). That set is F, the FAIL_TO_PASS tests.
 */
export const failingTestsCheck: ConsistencyCheck = {
  name: 'failing-tests',
  async run(ctx): Promise<Verdict> {
    const original = await reportOf(ctx, 'original');
    if ('verdict' in original) return original.verdict;
    const buggy = await reportOf(ctx, 'buggy');
    if ('verdict' in buggy) return buggy.verdict;
    const parserVerdict = parserFailureVerdict('buggy', buggy.report);
    if (parserVerdict) return parserVerdict;
    if (buggy.report.timedOut) {
      return fail(`test_script.sh timed out on the buggy repo (${Math.round(buggy.report.durationMs / 1000)} s); a bug must fail tests, not hang them`, {
        durationMs: buggy.report.durationMs,
      });
    }
    const broken = brokenByBug(original.report.statuses, buggy.report.statuses);
    const missing = broken.filter((id) => !(id in buggy.report.statuses));
    const min = ctx.thresholds.min_failing_tests;
    const evidence = { failing: broken.length, failingTests: sample(broken), missingTests: sample(missing), stillPassing: passedIds(buggy.report.statuses).length, minFailing: min };
    if (broken.length < min) return fail(`the bug makes ${broken.length} passing test(s) fail; at least ${min} required`, evidence);
    return pass(`the bug makes ${broken.length} passing test(s) fail (minimum ${min})`, evidence);
  },
};
