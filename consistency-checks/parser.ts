import { stableStringify } from '../src/util/stable-json.js';
import { fail, pass, reportOf, stateLabel, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck } from '../src/validator/check-types.js';

/**
 * method §3.2 parser: on the log of O the parser exits 0 in time and prints a non-empty status map;
 * fed the same log twice it prints the same map. A parser is only judged on a real log: when the
 * script timed out or printed nothing on O, `test-script` reports the script's fault instead.
 */
export const parserCheck: ConsistencyCheck = {
  name: 'parser',
  async run(ctx): Promise<Verdict> {
    const got = await reportOf(ctx, 'original');
    if ('verdict' in got) return got.verdict;
    const { report, run } = got;
    if (report.timedOut || report.logBytes === 0) {
      const why = report.timedOut ? 'the test script timed out' : 'the test script printed nothing';
      return pass(`not judged: ${why} on ${stateLabel('original')} (test-script reports it)`, { deferred: true, logBytes: report.logBytes });
    }
    if (report.parserFailure) {
      return fail(`test_parser.py failed on the original log: ${report.parserFailure.message}`, { parserFailure: report.parserFailure, logBytes: report.logBytes });
    }
    const count = Object.keys(report.statuses).length;
    if (count === 0) return fail('test_parser.py printed an empty status map for the original log', { logBytes: report.logBytes });
    const again = run.status === 'ran' ? run.reparse : undefined;
    if (!again) return { status: 'error', reason: 'the original log was not parsed a second time', evidence: {} };
    if (again.status === 'failed') {
      return fail(`test_parser.py failed when fed the same original log a second time: ${again.failure.message}`, { parserFailure: again.failure });
    }
    if (stableStringify(again.statuses) !== stableStringify(report.statuses)) {
      const differing = Object.keys({ ...report.statuses, ...again.statuses }).filter((id) => report.statuses[id] !== again.statuses[id]);
      return fail(`test_parser.py is not deterministic: the same log gave different maps (${differing.length} test(s) differ)`, {
        differing: differing.slice(0, 50),
      });
    }
    return pass(`parsed ${count} test(s) from a ${report.logBytes}-byte log, identically twice`, { tests: count, logBytes: report.logBytes });
  },
};
