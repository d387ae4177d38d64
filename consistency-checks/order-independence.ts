import { brokenTestsOf, fail, pass, reportOf, sample, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck, ValidationContext } from '../src/validator/check-types.js';
import { focusRunner, MAX_ALONE, orderRunScript, spread, type FocusRunner } from '../src/validator/order-run-script.js';
import type { CheckScript } from '../src/validator/script-runs.js';
import { hiddenByWeakening } from '../src/validator/weakening-effect.js';

/**
 * Issue 14: a FAIL_TO_PASS test must fail because of the bug, not because of the tests run before
 * it. On B, up to {@link MAX_ALONE} tests of F run each alone, and all of F once more in reverse
 * order, in one extra sandbox run (the cost stays bounded: one batch). A test that passes alone or
 * in the other order is dropped from FAIL_TO_PASS; the bug is rejected when none is left, or when
 * the weakening hid only dropped tests. Tests the run could not address (an unknown runner, an id
 * the runner does not find) keep their place: not judged is not guilty.
 */
export const orderIndependenceCheck: ConsistencyCheck = {
  name: 'order-independence',
  async prefetch(ctx): Promise<void> {
    const plan = await planOrderRun(ctx);
    if ('script' in plan) await ctx.runScript('order-independence', plan.script);
  },
  async run(ctx): Promise<Verdict> {
    const plan = await planOrderRun(ctx);
    if ('verdict' in plan) return plan.verdict;
    const { broken, runner, alone } = plan;
    const run = await ctx.runScript('order-independence', plan.script);
    if (run.status === 'error') return { status: 'error', reason: `could not run the tests alone on the buggy repo: ${run.error.message}`, evidence: { code: run.error.code } };
    if (run.status === 'apply-failed') return { status: 'error', reason: `bug_inject.diff no longer applies for the order run: ${run.detail}`, evidence: {} };
    const statuses = run.report.statuses;
    const passesAlone = alone.filter((id) => statuses[`alone::${id}`] === 'passed');
    const flips = broken.filter((id) => statuses[`reversed::${id}`] === 'passed' && !passesAlone.includes(id));
    const dropped = [...passesAlone, ...flips].sort();
    const kept = broken.filter((id) => !dropped.includes(id));
    const judgedAlone = alone.filter((id) => `alone::${id}` in statuses).length;
    const judgedReversed = broken.filter((id) => `reversed::${id}` in statuses).length;
    const evidence = {
      runner,
      failing: broken.length,
      judgedAlone,
      judgedReversed,
      passesAlone: sample(passesAlone),
      flipsWithOrder: sample(flips),
      timedOut: run.report.timedOut,
    };
    if (kept.length === 0) {
      return fail(`every FAIL_TO_PASS test passes alone or in another order on the buggy repo (${dropped.length}): the failures depend on test order, not on the bug`, evidence);
    }
    const [buggy, weakened] = [await reportOf(ctx, 'buggy'), await reportOf(ctx, 'weakened')];
    if ('verdict' in buggy) return buggy.verdict;
    if ('verdict' in weakened) return weakened.verdict;
    if (dropped.length > 0 && !kept.some((id) => hiddenByWeakening(id, buggy.report.statuses, weakened.report.statuses))) {
      return fail(`the weakening hides only tests that depend on order (${dropped.length}); none of the ${kept.length} order-independent failing test(s)`, evidence);
    }
    const reason = dropped.length === 0
      ? `every FAIL_TO_PASS test judged fails alone (${judgedAlone}) and in reverse order (${judgedReversed})`
      : `${dropped.length} test(s) that pass alone or in another order dropped from FAIL_TO_PASS; ${kept.length} kept`;
    return { ...pass(reason, evidence), ...(dropped.length > 0 ? { notFailToPass: dropped } : {}) };
  },
};

/** The order run, from O and B alone (so prefetch can start it before the checks between), or the verdict when there is none to make. */
async function planOrderRun(ctx: ValidationContext): Promise<{ verdict: Verdict } | { broken: string[]; runner: FocusRunner; alone: string[]; script: CheckScript }> {
  const read = await brokenTestsOf(ctx);
  if ('verdict' in read) return read;
  const { broken } = read;
  const { testScript, testFiles } = ctx.artifact;
  const runner = focusRunner(testScript, broken);
  if (!runner) return { verdict: pass('not judged: the test script runs no pytest or unittest that ssr can address test by test', { judged: 0, failing: broken.length }) };
  const alone = spread(broken, MAX_ALONE);
  return { broken, runner, alone, script: orderRunScript(runner, alone, broken, testFiles) };
}
