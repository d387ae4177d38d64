import type { StatusMap, TestReport } from '../harness/test-report.js';
import type { CheckResult, ValidationContext } from './check-types.js';
import type { StateKey, StateRun } from './state-runs.js';

export type Verdict = Omit<CheckResult, 'durationMs' | 'name'>;

export const pass = (reason: string, evidence: Record<string, unknown> = {}): Verdict => ({ status: 'pass', reason, evidence });
export const fail = (reason: string, evidence: Record<string, unknown> = {}): Verdict => ({ status: 'fail', reason, evidence });

/** Evidence lists are capped so a 10k-test suite does not bloat validation.json. */
export const MAX_EVIDENCE_IDS = 50;
export function sample(ids: readonly string[]): string[] {
  return ids.slice(0, MAX_EVIDENCE_IDS);
}

const STATE_LABEL: Record<string, string> = {
  original: 'the original repo',
  'original-repeat': 'the original repo (second run)',
  buggy: 'the buggy repo',
  weakened: 'the weakened repo',
};

export function stateLabel(key: StateKey): string {
  return STATE_LABEL[key] ?? `the buggy repo with ${key.slice('inverse:'.length)} reverted`;
}

/**
 * The report of a state, or the verdict that ends the check: infrastructure → `error` (never the
 * artifact's fault); a diff that stopped applying → `error` too, since `existence` already proved it applies.
 */
export async function reportOf(ctx: ValidationContext, key: StateKey): Promise<{ report: TestReport; run: StateRun } | { verdict: Verdict }> {
  const run = await ctx.run(key);
  if (run.status === 'ran') return { report: run.report, run };
  if (run.status === 'error') {
    return { verdict: { status: 'error', reason: `could not run the tests on ${stateLabel(key)}: ${run.error.message}`, evidence: { state: key, code: run.error.code } } };
  }
  return { verdict: { status: 'error', reason: `${run.diff} no longer applies for ${stateLabel(key)}: ${run.detail}`, evidence: { state: key } } };
}

/** The tests the bug breaks (O passed, B not), read from the O and B runs, or the verdict that ends the check. */
export async function brokenTestsOf(ctx: ValidationContext): Promise<{ broken: string[] } | { verdict: Verdict }> {
  const original = await reportOf(ctx, 'original');
  if ('verdict' in original) return original;
  const buggy = await reportOf(ctx, 'buggy');
  if ('verdict' in buggy) return buggy;
  return { broken: brokenByBug(original.report.statuses, buggy.report.statuses) };
}

/** A parser failure on a state's log is the artifact's fault (its parser), reported as a fail. */
export function parserFailureVerdict(key: StateKey, report: TestReport): Verdict | undefined {
  if (!report.parserFailure) return undefined;
  return fail(`test_parser.py failed on the log of ${stateLabel(key)}: ${report.parserFailure.message}`, {
    state: key,
    parserFailure: report.parserFailure,
  });
}

export function passedIds(map: StatusMap): string[] {
  return Object.keys(map)
    .filter((id) => map[id] === 'passed')
    .sort();
}

/** method §3.5 F: tests that passed on O and fail (or are missing) on B. */
export function brokenByBug(original: StatusMap, buggy: StatusMap): string[] {
  return passedIds(original).filter((id) => buggy[id] !== 'passed');
}
