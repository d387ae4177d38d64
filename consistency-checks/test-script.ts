import { fail, parserFailureVerdict, pass, passedIds, reportOf, sample, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck } from '../src/validator/check-types.js';
import { tamperFindings } from '../src/roles/grading/tamper-ids.js';

/**
 * method §3.3 test script / min passing: on O the script finishes in time, at least
 * `min_passing_tests` tests pass and none fail; a second run of O gives the same map
 * (flaky tests reject the artifact).
 */
export const testScriptCheck: ConsistencyCheck = {
  name: 'test-script',
  async run(ctx): Promise<Verdict> {
    const first = await reportOf(ctx, 'original');
    if ('verdict' in first) return first.verdict;
    const { report } = first;
    if (report.timedOut) {
      return fail(`test_script.sh timed out on the original repo after ${Math.round(report.durationMs / 1000)} s`, { durationMs: report.durationMs, logBytes: report.logBytes });
    }
    if (report.logBytes === 0) return fail('test_script.sh printed nothing on the original repo', { exitCode: report.exitCode });
    const parserVerdict = parserFailureVerdict('original', report);
    if (parserVerdict) return parserVerdict;

    const passed = passedIds(report.statuses);
    const failed = Object.keys(report.statuses).filter((id) => report.statuses[id] === 'failed').sort();
    const min = ctx.thresholds.min_passing_tests;
    const findings = tamperFindings(report.statuses);
    if (findings.length > 0) {
      // The repo's own clean suite trips the JS runner's in-process checks: every grade would be
      // runner-tampered, so the artifact is refused, naming what tripped them.
      return fail(`the original repo's own suite trips the test runner's in-process tamper checks (${findings.length}): ${sample(findings).join('; ')}`, { tamperFindings: sample(findings) });
    }
    if (failed.length > 0) {
      return fail(`${failed.length} selected test(s) fail on the original repo; all must pass`, { passed: passed.length, failed: failed.length, failedTests: sample(failed) });
    }
    if (passed.length < min) {
      return fail(`only ${passed.length} test(s) pass on the original repo; at least ${min} required`, { passed: passed.length, minPassing: min });
    }

    const second = await reportOf(ctx, 'original-repeat');
    if ('verdict' in second) return second.verdict;
    const repeat = second.report;
    if (repeat.timedOut) {
      return fail(`test_script.sh timed out on the second run of the original repo (the first took ${Math.round(report.durationMs / 1000)} s): flaky`, {
        durationMs: repeat.durationMs,
      });
    }
    const repeatParser = parserFailureVerdict('original-repeat', repeat);
    if (repeatParser) return repeatParser;
    const ids = [...new Set([...Object.keys(report.statuses), ...Object.keys(repeat.statuses)])].sort();
    const flaky = ids.filter((id) => report.statuses[id] !== repeat.statuses[id]);
    if (flaky.length > 0) {
      return fail(`${flaky.length} test(s) changed result between two runs of the original repo: flaky`, {
        flakyTests: sample(flaky),
        first: Object.fromEntries(sample(flaky).map((id) => [id, report.statuses[id] ?? 'missing'])),
        second: Object.fromEntries(sample(flaky).map((id) => [id, repeat.statuses[id] ?? 'missing'])),
      });
    }
    return pass(`${passed.length} test(s) pass on the original repo, none fail, identically on two runs`, {
      passed: passed.length,
      minPassing: min,
      durationMs: [report.durationMs, repeat.durationMs],
    });
  },
};
