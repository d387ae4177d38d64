import type { TestRunner } from '../../../config/repos-schema.js';
import type { RepairAttempt } from './plan-repairs.js';
import type { RunReport } from './run-report.js';
import type { TaskDiff } from './task-diff.js';

/** What one Solver episode did, for its closing summary. */
export interface SolverRun {
  seed: number;
  task: TaskDiff | null;
  taskApplied: boolean;
  coverage: boolean;
  /** The runner the tests ran with (see `chooseRunner`). */
  runner?: TestRunner;
  /** Test files the runs were limited to; empty: the whole suite. */
  scope?: string[];
  before?: RunReport;
  after?: RunReport;
  tried: { attempt: RepairAttempt; outcome: string }[];
  kept: RepairAttempt[];
  patchBytes?: number;
  notes: string[];
}

/** The plain-text summary the Solver ends its episode with: what it did and how far it got, honestly. */
export function describeSolverRun(run: SolverRun): string {
  const out: string[] = [];
  const tests = run.task?.tests.map((test) => test.name) ?? [];
  if (run.task) {
    const named = tests.length > 0 ? ` (tests named: ${tests.slice(0, 8).join(', ')}${tests.length > 8 ? ', …' : ''})` : '';
    out.push(`${run.taskApplied ? 'Applied' : 'Could not apply'} the task's test changes to ${run.task.files.join(', ')}${named}.`);
  }
  const scope = run.scope?.length ? run.scope.join(' ') : 'the whole suite';
  if (run.before) {
    const how = run.coverage ? 'with coverage-based (Ochiai) fault localisation' : 'without coverage (tracebacks only)';
    const using = run.runner && run.runner !== 'pytest' ? ` (run with ${run.runner})` : '';
    out.push(`Before: ${run.before.failedCount} failing and ${run.before.passed} passing tests in ${scope}${using}; localised ${how}.`);
  }
  const files = [...new Set(run.tried.map((t) => t.attempt.file))];
  out.push(`Tried ${run.tried.length} candidate edit(s) from the inverse operator catalogue${files.length > 0 ? ` in ${files.join(', ')}` : ''}.`);
  if (run.kept.length > 0) {
    const kept = run.kept.map((a) => `${a.candidate.description} at ${a.file}:${a.candidate.line}`);
    out.push(`Kept ${run.kept.length}: ${kept.join('; ')}.`);
  } else out.push('None of them made fewer tests fail without breaking others, so I changed no code.');
  if (run.after?.finished) {
    out.push(run.after.failedCount === 0 ? `After: every test in ${scope} passes.` : `After: ${run.after.failedCount} test(s) still fail, so the fix is incomplete.`);
  }
  out.push(...run.notes.map((note) => `Note: ${note}.`));
  out.push(`Submitted ${run.kept.length > 0 ? `a ${run.patchBytes ?? 0}-byte diff` : 'an empty diff'} (seed ${run.seed}).`);
  return out.join('\n');
}
