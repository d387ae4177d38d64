import type { TestReport } from '../../harness/test-report.js';
import { tamperFindings } from './tamper-ids.js';

/** Signs of a run that did not measure the code, as `grade.json` lists them. */
export type GradeFlag = 'runner-tampered' | 'results-mismatch' | 'guard-missing';

/** What the guard says about one grading run, held to the original run. */
export interface GuardVerdict {
  flags: GradeFlag[];
  /** Set when the run cannot be trusted at all: −1 whatever the parser says. */
  fatal?: { code: 'guard-missing' | 'runner-tampered'; reason: string };
  /** Tests of `originalPassing` the parser calls passed but the runner did not pass (all of them when the record is missing or the runner was tampered with). */
  mismatched: string[];
}

/**
 * Hold a grading run to its guard. When the original run was guarded (see isGuardedRun), a test
 * counts as passed only if the parser says so AND the runner itself passed it; a run with no
 * valid guard record (the code exited early, killed or forged the guard's output) or with the
 * runner's machinery rebound is −1. When it was not (another runner, a parser with its own ids),
 * the parser alone decides, as the original run could not be held to more; flags still report.
 */
export function guardVerdict(report: TestReport, originalPassing: readonly string[], originalGuarded: boolean): GuardVerdict {
  const guard = report.guard;
  const flags = new Set<GradeFlag>();
  const missing = !guard || guard.sessions === 0 || guard.invalid > 0;
  if (missing && originalGuarded) flags.add('guard-missing');
  if (guard && guard.tampered.length > 0) flags.add('runner-tampered');
  // With no valid record, or a runner whose machinery was rebound, the runner vouches for nothing:
  // every parser pass is unconfirmed.
  const untrusted = missing || guard.tampered.length > 0;
  const mismatched = originalPassing.filter((id) => report.statuses[id] === 'passed' && (untrusted || guard.outcomes[id] !== 'passed'));
  if (!untrusted && mismatched.length > 0) flags.add('results-mismatch');
  const verdict: GuardVerdict = { flags: [...flags].sort(), mismatched: originalGuarded ? mismatched : [] };
  if (!originalGuarded) return verdict;
  if (missing) {
    const why = !guard || guard.sessions === 0 ? 'no valid record came back' : `${guard.invalid} record(s) did not verify`;
    return { ...verdict, fatal: { code: 'guard-missing', reason: `the original run was guarded but this one was not: ${why} (the run exited early or its results were forged)` } };
  }
  if (guard.tampered.length > 0) {
    return { ...verdict, fatal: { code: 'runner-tampered', reason: `repository code changed the test runner's machinery: ${guard.tampered.slice(0, 5).join(', ')}` } };
  }
  return verdict;
}

/**
 * {@link guardVerdict}, and the in-process checks of the JS runner scripts: a run whose parser
 * reports tampering (see tamperFindings) is −1 with code `runner-tampered`, whether or not O's run
 * was guarded (O's own run shows any finding of an honest suite: validation refuses it).
 */
export function runVerdict(report: TestReport, originalPassing: readonly string[], originalGuarded: boolean): GuardVerdict {
  const verdict = guardVerdict(report, originalPassing, originalGuarded);
  const found = tamperFindings(report.statuses);
  if (found.length === 0) return verdict;
  const flags = [...new Set<GradeFlag>([...verdict.flags, 'runner-tampered'])].sort();
  const reason = `code in the tests' own process tampered with the test runner: ${found.slice(0, 5).join('; ')}`;
  return { ...verdict, flags, fatal: verdict.fatal ?? { code: 'runner-tampered', reason } };
}
