import type { TestRunner } from '../../../config/repos-schema.js';
import { bash, edit } from '../program.js';
import { jsTestFile } from './js-commands.js';
import { ask, type SolverBudget, type Steps } from './ask.js';
import { compareRuns } from './compare-runs.js';
import type { RepairAttempt } from './plan-repairs.js';
import { readRunReport } from './read-run-report.js';
import type { RunReport } from './run-report.js';
import { attemptRunCommand, FULL_RUN_MARKER, restoreCommand } from './solver-commands.js';

/** Time limits of one attempt's two runs (see {@link attemptRunCommand}). */
export interface AttemptLimits {
  quickTimeoutS: number;
  fullTimeoutS: number;
  /** The runner the tests run with; default pytest. */
  runner?: TestRunner;
}

/** What trying one edit showed. The edit is undone either way. */
export interface AttemptResult {
  verdict: string;
  /** The run with the edit in place, when it made fewer tests fail and broke none. */
  improved?: RunReport;
}

/**
 * Make one candidate edit and judge it by rerunning the tests: the failing ones first, the whole
 * scope only if fewer of them fail. The same command undoes the edit, so the repository is back at
 * its kept state afterwards whatever happened.
 */
export async function* evaluateRepair(attempt: RepairAttempt, current: RunReport, scope: string[], limits: AttemptLimits, budget: SolverBudget): Steps<AttemptResult> {
  const { file, candidate, edit: block } = attempt;
  const where = `${file}:${candidate.line}`;
  const made = yield* ask(edit(file, block.search, block.replace, `Try ${candidate.description} at ${where} (suspiciousness ${attempt.priority.toFixed(2)}).`), budget);
  if (!made.ok) return { verdict: 'edit refused' };
  // The quick run is only worth it when it names every failing test.
  const failing = current.failing.length === current.failedCount ? testSelectors(current.failing, limits.runner) : [];
  const command = attemptRunCommand({ failing, failedCount: current.failedCount, scope, ...limits, restore: [file] });
  const observation = yield* ask(bash(command, `Rerun the failing tests with ${candidate.description} at ${where} (the rest too if they improve), then undo it.`), budget);
  const [quickText = '', fullText] = observation.text.split(`${FULL_RUN_MARKER}\n`);
  const quick = readRunReport(quickText);
  const full = fullText === undefined ? null : readRunReport(fullText);
  if (observation.timedOut || (!quick && !full)) {
    // The command died before it could undo the edit (the shell's own time limit): undo it now.
    yield* ask(bash(restoreCommand([file]), `Undo the edit at ${where}.`), budget);
    return { verdict: 'the test run did not report' };
  }
  if (!full) return { verdict: quick?.exitCode === 124 ? 'the failing tests timed out' : 'no failing test passes' };
  const verdict = compareRuns(current, full);
  return verdict.status === 'improved' ? { verdict: `fixes ${verdict.fixed.length} test(s)`, improved: full } : { verdict: verdict.reason };
}

/** Make a judged edit again, for good. */
export async function* keepRepair(attempt: RepairAttempt, report: RunReport, budget: SolverBudget): Steps<boolean> {
  const { file, candidate, edit: block } = attempt;
  const why = `Keep ${candidate.description} at ${file}:${candidate.line}: ${report.failedCount} test(s) still fail, and no test broke.`;
  return (yield* ask(edit(file, block.search, block.replace, why), budget)).ok;
}

/**
 * What reruns the failing tests: pytest selectors, parametrized cases by their function; on a JS
 * repo their test files (the runners have no common way to pick one test). Supersets both.
 */
export function testSelectors(ids: readonly string[], runner: TestRunner = 'pytest'): string[] {
  if (runner !== 'pytest') return [...new Set(ids.map(jsTestFile))];
  return [...new Set(ids.map((id) => id.replace(/\[.*\]$/, '')))];
}
