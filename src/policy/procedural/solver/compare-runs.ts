import type { RunReport } from './run-report.js';

/** How a run after an edit compares with the run it should improve on. */
export type RunVerdict =
  | { status: 'improved'; fixed: string[] }
  | { status: 'no-better'; fixed: string[]; broken: string[]; reason: string };

/**
 * An edit is kept only if the run finished, fewer tests fail, no test that passed now fails and
 * no test disappeared (a module that no longer imports turns many tests into one collection error).
 * From a crashed suite (pytest printed no summary), finishing with any passing test is enough.
 * Ids beyond a cut failing list are judged by the counts alone.
 */
export function compareRuns(before: RunReport, after: RunReport): RunVerdict {
  const was = new Set(before.failing);
  const now = new Set(after.failing);
  const fixed = before.failing.filter((id) => !now.has(id));
  // A failing id not in the earlier list is new unless that list was cut.
  const beforeComplete = before.failing.length === before.failedCount;
  const broken = beforeComplete ? after.failing.filter((id) => !was.has(id)) : [];
  const no = (reason: string): RunVerdict => ({ status: 'no-better', fixed, broken, reason });
  // From a suite that did not even start, any run that finishes with a passing test is progress.
  if (!before.finished) return after.finished && after.passed > 0 ? { status: 'improved', fixed: [] } : no('the tests still do not run');
  if (!after.finished || after.exitCode === 124) return no(after.exitCode === 124 ? 'the tests timed out' : 'the test run did not finish');
  if (broken.length > 0) return no(`${broken.length} test(s) that passed now fail`);
  if (after.passed + after.failedCount < before.passed + before.failedCount) return no('fewer tests ran');
  if (after.failedCount >= before.failedCount) return no(after.failedCount === before.failedCount ? 'the same tests still fail' : 'more tests fail');
  if (after.passed <= before.passed) return no('no more tests pass');
  return { status: 'improved', fixed };
}
