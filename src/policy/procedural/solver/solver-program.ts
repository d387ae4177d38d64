import { applyCandidate } from '../../../mutation/apply-candidates.js';
import { seededRng, type SeededRng } from '../../../util/seeded-rng.js';
import { bash, create, submit, type Program } from '../program.js';
import { ask, DEFAULT_SOLVER_LIMITS, SolverBudget, type SolverLimits, type Steps } from './ask.js';
import { readRunReport } from './read-run-report.js';
import { ATTEMPT_TURNS, repairRound, type RoundState } from './repair-round.js';
import { REPORT_SCRIPT } from './report-script.js';
import type { RunReport } from './run-report.js';
import { readJsTestFiles, type JsRunner } from '../../../harness/js-test-files.js';
import { jsCoverageWorks, jsReportScript, jsRunScript, vitestCoverageScript } from './js-commands.js';
import { chooseRunner, readProbe } from './solver-runner.js';
import {
  applyTaskCommand,
  JS_PARSER_PATH,
  JS_REPORT_PATH,
  JS_RUN_PATH,
  JS_SUITE_PATH,
  PATCH_PATH,
  REPORT_SCRIPT_PATH,
  saveFixCommand,
  setupCommand,
  TASK_DIFF_PATH,
  testRunCommand,
  VITEST_COVERAGE_PATH,
} from './solver-commands.js';
import { describeSolverRun, type SolverRun } from './solver-summary.js';
import { extractTaskDiff } from './task-diff.js';
import type { AttemptLimits } from './try-repair.js';
import { maxRunSeconds, readTimeLimits } from '../run-limits.js';

/**
 * What the Solver program needs: the seed and its task prompt. A dispatcher's `ProgramContext`
 * fits (its `userPrompt` is the task; its `rng` is used when given).
 */
export interface SolverProgramContext {
  seed: number;
  taskPrompt?: string;
  userPrompt?: string;
  /** The system prompt, read for the per-command time limit when it states one. */
  systemPrompt?: string;
  rng?: SeededRng;
  /** Caps on tried edits; missing fields take {@link DEFAULT_SOLVER_LIMITS}. */
  limits?: Partial<SolverLimits>;
}

/** A suite slower than this under coverage is too slow to rerun after every tried edit. */
const FULL_SUITE_MAX_S = 60;

/**
 * The procedural Solver (method §4, issue 5): an honest automated-program-repair baseline that plays
 * through the tools like a model. It applies the task's test changes, runs the tests under
 * coverage, ranks code lines by Ochiai suspiciousness plus traceback frames, then tries the
 * inverse operator catalogue's edits at the most suspicious lines one `edit` at a time, rerunning
 * the tests after each and undoing it unless fewer tests fail and none newly fails. Kept edits
 * accumulate (greedy, re-localising after each); their diff is submitted even when some tests
 * still fail. It never sees the test script, parser, oracle list or bug patch.
 */
export function createSolverProgram(ctx: SolverProgramContext): Program {
  return solve(ctx);
}

async function* solve(ctx: SolverProgramContext): Program {
  const rng = (ctx.rng ?? seededRng(ctx.seed)).fork('solver');
  const budget = new SolverBudget({ ...DEFAULT_SOLVER_LIMITS, ...ctx.limits });
  const task = extractTaskDiff(ctx.taskPrompt ?? ctx.userPrompt ?? '');
  const run: SolverRun = { seed: ctx.seed, task, taskApplied: false, coverage: false, tried: [], kept: [], notes: [] };
  // The command limit the system prompt states, less a margin: no fixed ceiling, so a slow suite is not cut short.
  const maxRunS = maxRunSeconds(readTimeLimits(ctx.systemPrompt ?? '', ''));

  const setup = yield* ask(bash(setupCommand(), 'Make a scratch folder outside the repository, check whether coverage.py is available and see how the repo runs its tests.'), budget);
  const runner = chooseRunner(readProbe(setup.text), task?.files ?? [], `${ctx.systemPrompt ?? ''}\n${ctx.taskPrompt ?? ctx.userPrompt ?? ''}`);
  run.runner = runner;
  // A JS run always localises: V8 coverage of single tests, or a static spectrum where the runner transforms the code.
  run.coverage = runner === 'pytest' ? setup.text.includes('#coverage yes') : true;
  if (runner !== 'pytest' && !jsCoverageWorks(runner)) run.notes.push(`${runner} transforms the code before V8 sees it, so I localised by a static spectrum (the functions the failing tests name) instead of coverage`);
  if (task) {
    yield* ask(create(TASK_DIFF_PATH, task.text, 'Save the test changes from the task as a patch file.'), budget);
    const applied = yield* ask(bash(applyTaskCommand(), 'Apply the test changes so the new tests exist in the repository.'), budget);
    run.taskApplied = /#applied /.test(applied.text);
  } else run.notes.push('the task holds no diff I could read');
  if (runner === 'pytest') yield* ask(create(REPORT_SCRIPT_PATH, REPORT_SCRIPT, 'Write a helper that condenses a test log and its coverage into a short report.'), budget);
  else yield* writeJsHelpers(runner, budget);

  const tests = (targets: string[], timeoutS: number): Steps<RunReport | null> =>
    runTests(budget, { targets, coverage: run.coverage, tracebacks: 'short', timeoutS, runner });

  let scope: string[] = [];
  let current = yield* tests(scope, maxRunS);
  const taskFiles = task?.files ?? [];
  const slow = !current || current.exitCode === 124 || current.seconds > FULL_SUITE_MAX_S;
  if (slow && taskFiles.length > 0) {
    scope = taskFiles;
    current = yield* tests(scope, maxRunS);
  }
  run.scope = scope;
  run.before = current ?? undefined;
  if (!current) run.notes.push('the test runs printed no report');
  else if (current.exitCode === 124) run.notes.push('the tests did not finish within the time limit');
  else if (!current.finished) run.notes.push(`${runner === 'pytest' ? 'pytest' : 'the test runner'} stopped before running any test${current.frames.length > 0 ? ' (a crash at import)' : ''}`);
  else if (current.failedCount === 0) run.notes.push('no test fails, so there is nothing to repair');

  const baseSeconds = current?.seconds ?? 10;
  // A JS runner's start (Vite, esbuild, a worker pool) is most of a small run and swings with the
  // machine's load: a quick run of one file may take as long as the whole scope did, or longer,
  // so it gets the full run's limit (seen on tskit: 15 s for the scope, then quick runs past 35 s).
  const quickSeconds = runner === 'pytest' ? Math.max(10, baseSeconds + 5) : Math.max(30, 3 * baseSeconds + 10);
  const limits: AttemptLimits = {
    quickTimeoutS: Math.min(maxRunS, quickSeconds),
    fullTimeoutS: Math.min(maxRunS, Math.max(20, 3 * baseSeconds + 10)),
  };
  const state: RoundState = { budget, run, scope, limits, runner, sources: new Map(), unreadable: new Set(), tried: new Set() };
  let submitted = false;
  for (let round = 0; current && needsRepair(current); round++) {
    const kept = yield* repairRound(state, current, rng.fork(`round:${round}`));
    if (!kept) break;
    current = kept.report;
    state.sources.set(kept.attempt.file, applyCandidate(state.sources.get(kept.attempt.file)!, kept.attempt.candidate));
    run.kept.push(kept.attempt);
    yield* saveAndSubmit(run, budget);
    submitted = true;
    if (current.failedCount === 0 || !budget.allows(1 + ATTEMPT_TURNS)) break;
    // Re-localise on what still fails: the kept edit changed which lines the failing tests run.
    const again = yield* tests(scope, maxRunS);
    if (!again || !needsRepair(again)) break;
    current = again;
  }
  run.after = current ?? undefined;
  if (budget.fruitless >= budget.limits.maxFruitless) run.notes.push(`gave up after ${budget.fruitless} candidate edits in a row did not help`);
  if (!submitted) yield* saveAndSubmit(run, budget);
  return describeSolverRun(run);
}

/** Tests fail, or the suite crashed with a traceback into the code (a run that timed out gives nothing to go on). */
function needsRepair(report: RunReport): boolean {
  return report.finished ? report.failedCount > 0 : report.exitCode !== 124 && report.frames.length > 0;
}

/**
 * On a JS/TS repo: the harness's suite script and parser for the runner, the script that runs
 * some test files with it, and the report script.
 */
async function* writeJsHelpers(runner: JsRunner, budget: SolverBudget): Steps<void> {
  const harness = readJsTestFiles(runner);
  yield* ask(create(JS_SUITE_PATH, harness.testScript, `Write the script that runs the whole suite with ${runner}.`), budget);
  yield* ask(create(JS_RUN_PATH, jsRunScript(runner, JS_SUITE_PATH), `Write a script that runs the given test files with ${runner} (the whole suite without arguments).`), budget);
  yield* ask(create(JS_PARSER_PATH, harness.testParser, `Write a parser for ${runner}'s output.`), budget);
  yield* ask(create(JS_REPORT_PATH, jsReportScript(), 'Write a helper that condenses a test log, its stack traces and V8 coverage of single tests into a short report.'), budget);
  if (runner !== 'vitest') return;
  yield* ask(create(VITEST_COVERAGE_PATH, vitestCoverageScript(), "Write a script that runs Vitest with a setup file recording which lines of the code each test runs (V8 coverage mapped through Vitest's source maps)."), budget);
}

async function* runTests(budget: SolverBudget, options: Parameters<typeof testRunCommand>[0]): Steps<RunReport | null> {
  const what = options.targets.length > 0 ? options.targets.join(' ') : 'the whole test suite';
  const why = options.coverage ? `Run ${what} under coverage to see what fails and which lines the failing tests execute.` : `Run ${what}.`;
  const observation = yield* ask(bash(testRunCommand(options), why), budget);
  return readRunReport(observation.text);
}

/** Write the kept edits' diff (code files only) and submit it. */
async function* saveAndSubmit(run: SolverRun, budget: SolverBudget): Steps<void> {
  const files = [...new Set(run.kept.map((attempt) => attempt.file))];
  const saved = yield* ask(bash(saveFixCommand(files), files.length > 0 ? 'Save the kept edits as a diff.' : 'No edit helped: write an empty diff.'), budget);
  run.patchBytes = Number(/#patch-bytes (\d+)/.exec(saved.text)?.[1] ?? 0);
  yield* ask(submit({ patch: PATCH_PATH }, 'Submit the fix.'), budget);
}
