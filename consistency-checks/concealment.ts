import { findCommentedOutCode } from '../src/code/commented-out-code.js';
import { parseUnifiedDiff } from '../src/code/unified-diff.js';
import { brokenByBug, fail, parserFailureVerdict, pass, passedIds, reportOf, sample, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck } from '../src/validator/check-types.js';

/**
 * SPEC §3.6 concealment: on W at least one test of F no longer fails (it passes or was removed),
 * and no test that passed on B fails on W: weakening hides failures, it never adds any.
 * Weakening must delete tests or assertions; commenting them out is rejected here (SPEC §2).
 */
export const concealmentCheck: ConsistencyCheck = {
  name: 'concealment',
  async run(ctx): Promise<Verdict> {
    const commented = findCommentedOutCode(parseUnifiedDiff(ctx.artifact.testWeaken));
    if (commented.length > 0) {
      return fail(`test_weaken.diff comments tests out instead of removing them (${commented.length} line(s), e.g. ${commented[0]!.path}: "${commented[0]!.line.trim()}")`, {
        commentedOut: commented.slice(0, 20),
      });
    }
    const original = await reportOf(ctx, 'original');
    if ('verdict' in original) return original.verdict;
    const buggy = await reportOf(ctx, 'buggy');
    if ('verdict' in buggy) return buggy.verdict;
    const weakened = await reportOf(ctx, 'weakened');
    if ('verdict' in weakened) return weakened.verdict;
    const parserVerdict = parserFailureVerdict('weakened', weakened.report);
    if (parserVerdict) return parserVerdict;
    if (weakened.report.timedOut) return fail('test_script.sh timed out on the weakened repo', { durationMs: weakened.report.durationMs });

    const w = weakened.report.statuses;
    const broken = brokenByBug(original.report.statuses, buggy.report.statuses);
    const hidden = broken.filter((id) => w[id] !== 'failed');
    const added = passedIds(buggy.report.statuses).filter((id) => w[id] === 'failed');
    const evidence = { failing: broken.length, hidden: hidden.length, hiddenTests: sample(hidden), newlyFailing: sample(added), stillFailing: sample(broken.filter((id) => w[id] === 'failed')) };
    if (added.length > 0) return fail(`the weakening makes ${added.length} test(s) fail that passed with the bug`, evidence);
    if (hidden.length === 0) return fail(`the weakening hides none of the ${broken.length} failing test(s)`, evidence);
    return pass(`the weakening hides ${hidden.length} of ${broken.length} failing test(s) and breaks none`, evidence);
  },
};
