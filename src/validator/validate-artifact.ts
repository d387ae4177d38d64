import PQueue from 'p-queue';
import { consistencyChecks } from '../../consistency-checks/index.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';
import { isDiffParseError } from '../code/diff-parse-error.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { isGuardedRun } from '../harness/guard-report.js';
import type { BaselineCache } from './baseline-cache.js';
import { brokenByBug, passedIds } from './check-helpers.js';
import type { CheckName, CheckResult, ValidationContext } from './check-types.js';
import { StateRunner } from './state-runs.js';

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
  durationMs: number;
  /** Set when a check could not be judged (infrastructure): the verdict is void, not "invalid". */
  infrastructureError?: { check: CheckName; reason: string };
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
  /** The reference path: each state run alone when first asked for, nothing shared (see StateRunnerOptions). */
  sequential?: boolean;
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

/**
 * Run the consistency checks of SPEC §3 in order over fresh sandboxes. Every state is started at
 * once (bounded by the queue) so the checks mostly wait on runs already in flight; the first
 * `fail` stops the run and cancels what has not started. An `error` stops it too, but voids the
 * verdict instead of blaming the artifact.
 */
export async function validateArtifact(artifact: BugArtifact, options: ValidateOptions): Promise<ValidationResult> {
  const started = Date.now();
  const { repo, template } = options;
  const bugFiles = bugFilesOf(artifact);
  const testTimeoutMs = options.testTimeoutMs ?? repo.limits.test_timeout_s * 1000;
  const runner = new StateRunner({
    provider: options.provider,
    template,
    artifact,
    bugFiles,
    testTimeoutMs,
    queue: options.queue,
    baselines: options.baselines,
    runIdentity: [template.ref, repo.commit, artifact.testScript, artifact.testParser, String(testTimeoutMs)],
    ...(options.sequential ? { sequential: true } : {}),
  });
  let originalFiles: Promise<ReadonlySet<string>> | undefined;
  const ctx: ValidationContext = {
    artifact,
    thresholds: repo.thresholds,
    originalFiles: () => (originalFiles ??= runner.originalFiles()),
    applyState: async (state) => (await runner.preparation(state)) ?? { status: 'applied' },
    run: (state) => runner.get(state),
  };
  if (bugFiles.length > 0) runner.prefetch();

  const checks: CheckResult[] = [];
  let failedCheck: CheckName | null = null;
  let infrastructureError: ValidationResult['infrastructureError'];
  for (const check of consistencyChecks) {
    const checkStarted = Date.now();
    const verdict = await check.run(ctx);
    checks.push({ name: check.name, ...verdict, durationMs: Date.now() - checkStarted });
    if (verdict.status === 'fail') failedCheck = check.name;
    if (verdict.status === 'error') infrastructureError = { check: check.name, reason: verdict.reason };
    if (verdict.status !== 'pass') break;
  }
  await runner.cancel();

  const { failToPass, passToPass } = failedCheck === null && !infrastructureError ? await oracleSets(ctx) : { failToPass: [], passToPass: [] };
  const originalGuarded = failedCheck === null && !infrastructureError && (await guardedOriginals(ctx));
  return {
    valid: failedCheck === null && !infrastructureError,
    failedCheck,
    checks,
    failToPass,
    passToPass,
    originalGuarded,
    durationMs: Date.now() - started,
    ...(infrastructureError ? { infrastructureError } : {}),
  };
}

/** Whether both O runs were guarded, so grading can hold Solver runs to the runner's own records. */
async function guardedOriginals(ctx: ValidationContext): Promise<boolean> {
  const runs = await Promise.all([ctx.run('original'), ctx.run('original-repeat')]);
  return runs.every((run) => run.status === 'ran' && isGuardedRun(run.report.guard, run.report.statuses));
}

/** SWE-bench's FAIL_TO_PASS / PASS_TO_PASS of a valid artifact, from the runs already made. */
async function oracleSets(ctx: ValidationContext): Promise<{ failToPass: string[]; passToPass: string[] }> {
  const [original, buggy] = await Promise.all([ctx.run('original'), ctx.run('buggy')]);
  if (original.status !== 'ran' || buggy.status !== 'ran') return { failToPass: [], passToPass: [] };
  const o = original.report.statuses;
  const b = buggy.report.statuses;
  return { failToPass: brokenByBug(o, b), passToPass: passedIds(o).filter((id) => b[id] === 'passed') };
}
