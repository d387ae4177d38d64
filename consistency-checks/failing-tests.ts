import { brokenByBug, fail, parserFailureVerdict, pass, passedIds, reportOf, sample, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck } from '../src/validator/check-types.js';

/**
 * method §3.5 failing tests: on B at least `min_failing_tests` tests that passed on O fail
 * (missing from the map counts as failed). That set is F, the FAIL_TO_PASS tests.
 * Missing counts toward F, not toward the threshold: at least `min_failing_tests` of F must have
 * run and failed on B. A "bug" that only stops the tests from running (an import that fails, a
 * module that no longer parses: nothing collects) makes no test fail, and would otherwise pass
 * concealment with any weakening, since the tests missing on B are missing on W too.
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
    const ranAndFailed = broken.filter((id) => buggy.report.statuses[id] === 'failed');
    const min = ctx.thresholds.min_failing_tests;
    const evidence = {
      failing: broken.length,
      ranAndFailed: ranAndFailed.length,
      failingTests: sample(broken),
      missingTests: sample(missing),
      stillPassing: passedIds(buggy.report.statuses).length,
      minFailing: min,
    };
    if (broken.length < min) return fail(`the bug makes ${broken.length} passing test(s) fail; at least ${min} required`, evidence);
    if (ranAndFailed.length < min) {
      return fail(
        `the bug stops tests from running instead of making them fail: ${missing.length} of the ${broken.length} test(s) it breaks are missing from the buggy repo's report ` +
          `(an import or collection error, or a crashed runner?) and only ${ranAndFailed.length} ran and failed; at least ${min} required`,
        evidence,
      );
    }
    const note = missing.length > 0 ? `; ${missing.length} of them missing from the report` : '';
    return pass(`the bug makes ${broken.length} passing test(s) fail (minimum ${min}${note})`, evidence);
  },
};
