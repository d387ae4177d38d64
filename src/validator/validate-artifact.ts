import PQueue from 'p-queue';
import { consistencyChecks } from '../../consistency-checks/index.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';
import { isDiffParseError } from '../code/diff-parse-error.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { isGuardedRun, toleratedTampering } from '../harness/guard-report.js';
import type { BaselineCache } from './baseline-cache.js';
import { brokenByBug, passedIds, sample } from './check-helpers.js';
import { planSelection, type SelectionOutcome, type SelectTestsMode } from './selection/plan-selection.js';
import { asSelected, mergeSelected, selectionMisses } from './selection/selected-view.js';
import { runIdentity } from './run-identity.js';
import type { CheckName, CheckResult, ValidationContext } from './check-types.js';
import type { InverseRedundancyMode } from './inverse-redundancy-mode.js';
import { ScriptRunner } from './script-runs.js';
import { StateRunner, type StateKey } from './state-runs.js';
import { resolveTestTimeoutMs } from '../config/test-timeout.js';
import { TestRunCounter, type TestRunCounts, type TestRunKind, type TestRunScope } from '../harness/test-run-counts.js';

/** The verdict on one artifact; the `--json` output of `ssr validate` is exactly this object. */
export interface ValidationResult {
  valid: boolean;
  /** The check that rejected the artifact, or null. */
  failedCheck: CheckName | null;
  checks: CheckResult[];
  /** Oracle tests passing on O and failing on B (F). */
  failToPass: string[];
  /** Tests passing on O and on B. */
  passToPass: string[];
  /**
   * Both O runs were guarded (see isGuardedRun): the runner's own records came back, untampered,
   * and agree with the parser. Grading then holds every Solver run to the same (gradeSolution's
   * `originalGuarded`); false for another runner or a parser with its own test ids.
   */
  originalGuarded: boolean;
  /**
   * What the guard reported on O's own runs (its tests walk the heap, load native code, …; see
   * toleratedTampering): grading lets an attempt repeat exactly these and holds it to the rest.
   * Absent when O's runs reported nothing.
   */
  toleratedTampering?: string[];
  durationMs: number;
  /** Set when a check could not be judged (infrastructure): the verdict is void, not "invalid". */
  infrastructureError?: { check: CheckName; reason: string };
  /** Whether the bug's states ran only its relevant tests, and how that ended (see planSelection). */
  selection?: SelectionOutcome;
  /** Test runs this validation started, by kind, full or restricted (the cache's answers are not runs); a fallback's runs included. */
  testRuns?: TestRunCounts;
}

export interface ValidateOptions {
  repo: ResolvedRepo;
  template: SandboxTemplate;
  provider: SandboxProvider;
  /** Test-script time limit, ms (default: the repo's limit). */
  testTimeoutMs?: number;
  /** Sandboxes running at once (shared when validating many artifacts). */
  queue: PQueue;
  baselines: BaselineCache;
  /** The reference path: each state run alone when first asked for, nothing shared, no test selection (see StateRunnerOptions). */
  sequential?: boolean;
  /** Overrides the repo's `test_selection.mode` (`--select-tests`). */
  selectTests?: SelectTestsMode;
  /** Where this validation's test runs are counted (the episode's counter); a fresh one when absent. */
  testRuns?: TestRunCounter;
  /** `record` for a real fix (a mined bug): its files need not each fix a test alone (see InverseRedundancyMode); default `enforce`. */
  inverseRedundancy?: InverseRedundancyMode;
}

/** Bug files for the inverse runs; an unparsable diff has none (existence rejects it first). */
function bugFilesOf(artifact: BugArtifact): string[] {
  try {
    return parseUnifiedDiff(artifact.bugInject).touchedPaths;
  } catch (error) {
    if (isDiffParseError(error)) return [];
    throw error;
  }
}

/** Checks whose verdict reads only O's full runs or the diffs: selection cannot change them. */
const SELECTION_FREE: ReadonlySet<CheckName> = new Set(['existence', 'parser', 'test-script', 'min-files']);

/** The kind of a state's run: B's full run is the audit when the states ran restricted. */
function kindOf(key: StateKey, audit: boolean): TestRunKind {
  if (key === 'original' || key === 'original-repeat') return 'original';
  if (key === 'buggy') return audit ? 'audit' : 'buggy';
  return key === 'weakened' ? 'weakened' : 'inverse';
}

function runnerFor(artifact: BugArtifact, options: ValidateOptions, bugFiles: string[], onRun: (key: StateKey) => void, env?: Record<string, string>): StateRunner {
  const { repo, template } = options;
  const testTimeoutMs = resolveTestTimeoutMs(repo, options.testTimeoutMs);
  return new StateRunner({
    provider: options.provider,
    template,
    artifact,
    bugFiles,
    testTimeoutMs,
    queue: options.queue,
    baselines: options.baselines,
    runIdentity: runIdentity({ imageRef: template.ref, commit: repo.commit, artifact, testTimeoutMs, ...(env ? { env } : {}) }),
    ...(options.sequential ? { sequential: true } : {}),
    ...(env ? { env } : {}),
    onRun,
  });
}

/**
 * Run the consistency checks of method §3 in order over fresh sandboxes. Every state is started at
 * once (bounded by the queue) so the checks mostly wait on runs already in flight; the first
 * `fail` stops the run and cancels what has not started. An `error` stops it too, but voids the
 * verdict instead of blaming the artifact.
 *
 * Where the tests relevant to the bug are known (see planSelection: O's per-test coverage, or the
 * import graph on a slow suite), W and the inverse states run only those, read through O's full
 * run (mergeSelected); B runs in full, and once a verdict depends on the selection that run
 * audits it: any test it got wrong reruns the validation on the full suite.
 */
export async function validateArtifact(artifact: BugArtifact, options: ValidateOptions): Promise<ValidationResult> {
  const started = Date.now();
  const bugFiles = bugFilesOf(artifact);
  const counter = options.testRuns ?? new TestRunCounter();
  let restricted = false;
  // B's full run may start before the plan says whether it is the audit: counted once that is known.
  let planned = false;
  let buggyBeforePlan = 0;
  const count = (scope: TestRunScope) => (key: StateKey) => {
    if (scope === 'full' && key === 'buggy' && !planned) buggyBeforePlan += 1;
    else counter.add(kindOf(key, scope === 'full' && restricted), scope);
  };
  const full = runnerFor(artifact, options, bugFiles, count('full'));
  const mode = options.sequential ? 'never' : (options.selectTests ?? options.repo.testSelection?.mode ?? 'auto');
  if (mode !== 'never' && bugFiles.length > 0) {
    // O's runs first: `auto` needs the clean-suite time (cached for the later bugs of a run). B
    // runs in full whatever the plan decides (as the audit where the other states are selected),
    // so it starts beside O, not after it: O, then B, then the order run (which needs both) was
    // the validation's critical path, three runs one after another.
    void full.get('original');
    void full.get('buggy');
    void full.get('original-repeat');
  }
  const testTimeoutMs = resolveTestTimeoutMs(options.repo, options.testTimeoutMs);
  const plan = await planSelection({ ...options, bugFiles, bugInject: artifact.bugInject, testScript: artifact.testScript, testFiles: artifact.testFiles, testTimeoutMs, mode, full, onTrace: () => counter.add('coverage', 'full') });
  // A JS selection runs a restricted copy of the runner's script; a Python one, the same script with PYTEST_ADDOPTS.
  const selected = plan.status === 'selected' ? runnerFor(plan.testScript ? { ...artifact, testScript: plan.testScript } : artifact, options, bugFiles, count('restricted'), plan.env) : undefined;
  planned = true;
  restricted = selected !== undefined;
  if (buggyBeforePlan > 0) counter.add(kindOf('buggy', restricted), 'full', buggyBeforePlan);
  if (selected) {
    // B runs once, in full: the checks read it as it is, and it is the audit of the other states' selection.
    selected.prefetch({ repeat: false, buggy: false });
    void full.get('buggy');
  } else if (bugFiles.length > 0) full.prefetch();
  // A check's own script runs chosen tests of B (order-independence: the failing ones), never the suite.
  const onScript = (name: string) => counter.add(name === 'order-independence' ? 'order' : 'buggy', 'restricted');
  const scripts = new ScriptRunner({ provider: options.provider, template: options.template, artifact, testTimeoutMs, queue: options.queue, onRun: onScript });

  let originalFiles: Promise<ReadonlySet<string>> | undefined;
  const ctx: ValidationContext = {
    artifact,
    thresholds: options.repo.thresholds,
    originalFiles: () => (originalFiles ??= full.originalFiles()),
    originalDoctestFiles: () => full.originalDoctestFiles(),
    applyState: async (state) => (await (state === 'weakened' && selected ? selected : full).preparation(state)) ?? { status: 'applied' },
    run: async (state) => {
      if (!selected || state === 'original' || state === 'original-repeat' || state === 'buggy') return full.get(state);
      const [originalFull, originalSelected, run] = await Promise.all([full.get('original'), selected.get('original'), selected.get(state)]);
      return mergeSelected(originalFull, originalSelected, run);
    },
    runScript: (name, script) => scripts.run(name, script),
    ...(options.inverseRedundancy ? { inverseRedundancy: options.inverseRedundancy } : {}),
  };

  // The checks' own runs start as soon as what they need is known, not when their turn comes.
  if (!options.sequential) for (const check of consistencyChecks) void check.prefetch?.(ctx).catch(() => undefined);
  const { checks, failedCheck, infrastructureError } = await runChecks(ctx);
  if (selected && !infrastructureError && (failedCheck === null || !SELECTION_FREE.has(failedCheck))) {
    const missed = await auditSelection(full, selected);
    if (missed.length > 0) {
      await Promise.all([full.cancel(), selected.cancel(), scripts.cancel()]);
      const again = await validateArtifact(artifact, { ...options, selectTests: 'never', testRuns: counter });
      const reason = `the audit's full run of the buggy repo disagrees with the selection on ${missed.length} test(s)`;
      return { ...again, selection: { status: 'fallback', reason, missed: sample(missed) }, durationMs: Date.now() - started };
    }
  }
  await Promise.all([full.cancel(), selected?.cancel(), scripts.cancel()]);

  const judged = failedCheck === null && !infrastructureError;
  const sets = judged ? await oracleSets(ctx) : { failToPass: [], passToPass: [] };
  // Tests the order-independence check found passing alone or flipping with order are not oracle tests.
  const notFailToPass = new Set(checks.flatMap((check) => check.notFailToPass ?? []));
  const failToPass = sets.failToPass.filter((id) => !notFailToPass.has(id));
  const { passToPass } = sets;
  const { guarded: originalGuarded, tolerated } = judged ? await guardedOriginals(ctx) : { guarded: false, tolerated: [] };
  const selection: SelectionOutcome = plan.status === 'selected' ? { status: 'selected', by: plan.by, keptTestFiles: plan.keptTestFiles, testFiles: plan.testFiles } : plan;
  return {
    valid: judged,
    failedCheck,
    checks,
    failToPass,
    passToPass,
    originalGuarded,
    ...(originalGuarded && tolerated.length > 0 ? { toleratedTampering: tolerated } : {}),
    durationMs: Date.now() - started,
    ...(infrastructureError ? { infrastructureError } : {}),
    selection,
    testRuns: counter.snapshot(),
  };
}

async function runChecks(ctx: ValidationContext): Promise<Pick<ValidationResult, 'checks' | 'failedCheck' | 'infrastructureError'>> {
  const checks: CheckResult[] = [];
  for (const check of consistencyChecks) {
    const checkStarted = Date.now();
    const verdict = await check.run(ctx);
    checks.push({ name: check.name, ...verdict, durationMs: Date.now() - checkStarted });
    if (verdict.status === 'fail') return { checks, failedCheck: check.name };
    if (verdict.status === 'error') return { checks, failedCheck: null, infrastructureError: { check: check.name, reason: verdict.reason } };
  }
  return { checks, failedCheck: null };
}

/**
 * Test ids the selection got wrong (selectionMisses): B's full run read as the selection would
 * have read it (its selected tests' statuses, O's for the rest) against itself. A run of the
 * audit that did not complete counts as a miss too.
 */
async function auditSelection(full: StateRunner, selected: StateRunner): Promise<string[]> {
  const [originalFull, originalSelected, buggyFull] = await Promise.all([full.get('original'), selected.get('original'), full.get('buggy')]);
  const runs = [originalFull, originalSelected, buggyFull];
  if (!runs.every((run) => run.status === 'ran')) return ['(an audit run did not complete)'];
  const [o, os, bf] = runs.map((run) => (run.status === 'ran' ? run.report.statuses : {}));
  return selectionMisses({ originalFull: o!, originalSelected: os!, buggyMerged: asSelected(o!, os!, bf!), buggyFull: bf! });
}

/**
 * Whether both O runs were guarded, so grading can hold Solver runs to the runner's own records,
 * and what the guard reported on them that later runs may repeat (the repo's own doing).
 */
async function guardedOriginals(ctx: ValidationContext): Promise<{ guarded: boolean; tolerated: string[] }> {
  const runs = await Promise.all([ctx.run('original'), ctx.run('original-repeat')]);
  const tolerated = toleratedTampering(runs.map((run) => (run.status === 'ran' ? run.report.guard : undefined)));
  const guarded = runs.every((run) => run.status === 'ran' && isGuardedRun(run.report.guard, run.report.statuses, tolerated));
  return { guarded, tolerated };
}

/** SWE-bench's FAIL_TO_PASS / PASS_TO_PASS of a valid artifact, from the runs already made. */
async function oracleSets(ctx: ValidationContext): Promise<{ failToPass: string[]; passToPass: string[] }> {
  const [original, buggy] = await Promise.all([ctx.run('original'), ctx.run('buggy')]);
  if (original.status !== 'ran' || buggy.status !== 'ran') return { failToPass: [], passToPass: [] };
  const o = original.report.statuses;
  const b = buggy.report.statuses;
  return { failToPass: brokenByBug(o, b), passToPass: passedIds(o).filter((id) => b[id] === 'passed') };
}
