import { findCommentedOutCode } from '../src/code/commented-out-code.js';
import { parseUnifiedDiff } from '../src/code/unified-diff.js';
import { brokenByBug, fail, parserFailureVerdict, pass, reportOf, sample, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck } from '../src/validator/check-types.js';
import { weakeningEffect } from '../src/validator/weakening-effect.js';

/**
 * method §3.6 concealment: on W at least one test of F no longer fails (it passes or was removed),
 * and no test that passed on B fails on W: weakening hides failures, it never adds any.
 * "Removed" means deleted by the weakening: a test missing on B and on W never ran, and a test
 * file that stops running on W (it no longer collects) hides nothing (see weakening-effect.ts).
 * Weakening must delete tests or assertions; commenting them out is rejected here (method §2).
 */
export const concealmentCheck: ConsistencyCheck = {
  name: 'concealment',
  async run(ctx): Promise<Verdict> {
    const weaken = parseUnifiedDiff(ctx.artifact.testWeaken);
    const commented = findCommentedOutCode(weaken);
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

    const broken = brokenByBug(original.report.statuses, buggy.report.statuses);
    const deletedFiles = weaken.files.filter((file) => file.kind === 'deleted').map((file) => file.oldPath!);
    const effect = weakeningEffect({
      buggy: buggy.report.statuses,
      weakened: weakened.report.statuses,
      broken,
      testFiles: ctx.artifact.testFiles,
      deletedFiles,
    });
    const { hidden, newlyFailing, stoppedFiles, neverRan, failingOnlyOnW } = effect;
    const evidence = {
      failing: broken.length,
      hidden: hidden.length,
      hiddenTests: sample(hidden),
      newlyFailing: sample(newlyFailing),
      stillFailing: sample(effect.stillFailing),
      ...(neverRan.length > 0 ? { neverRan: sample(neverRan) } : {}),
      ...(stoppedFiles.length > 0 ? { stoppedFiles: sample(stoppedFiles) } : {}),
      ...(failingOnlyOnW.length > 0 ? { failingOnlyOnW: sample(failingOnlyOnW) } : {}),
    };
    if (newlyFailing.length > 0) return fail(`the weakening makes ${newlyFailing.length} test(s) fail that passed with the bug`, evidence);
    if (stoppedFiles.includes('*')) return fail('the weakened repo runs none of the tests that ran on the buggy repo: the weakening stops the tests from running instead of hiding failures', evidence);
    if (stoppedFiles.length > 0) {
      return fail(`no test of ${stoppedFiles.join(', ')} runs on the weakened repo, though tests of it passed on the buggy repo and the weakening does not delete it: it stops the file from running (an import or collection error?) instead of deleting tests`, evidence);
    }
    if (hidden.length === 0) {
      const why = neverRan.length > 0 ? ` (${neverRan.length} of them never ran, on the buggy repo or the weakened one: missing is not hidden)` : '';
      return fail(`the weakening hides none of the ${broken.length} failing test(s)${why}`, evidence);
    }
    return pass(`the weakening hides ${hidden.length} of ${broken.length} failing test(s) and breaks none`, evidence);
  },
};
