import { z } from 'zod';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { scoreSolver } from '../reward/score-solver.js';
import { runTests } from '../harness/run-tests.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { APPLY_METHODS, applyDiff } from '../workspace/apply-diff.js';
import { restoreFiles } from '../workspace/restore-files.js';
import { applyBuggyState } from './buggy-state.js';
import { mayHoldDoctests } from '../code/classify-hunk.js';
import { isDoctestHost } from '../code/doctest-diff-rules.js';
import { forgetOriginal } from './forget-original.js';
import { formatGitDiff } from '../code/format-git-diff.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import { shellQuote } from '../util/shell-quote.js';
import { dropExampleHunks } from './grading/drop-example-hunks.js';
import { droppedSectionSchema, type DroppedSection } from './grading/drop-reason.js';
import { runVerdict } from './grading/guard-verdict.js';
import { originalRunnerNamedFiles } from './grading/original-runner-named.js';
import { sanitizePatch } from './grading/sanitize-patch.js';
import type { TestRunCounter } from '../harness/test-run-counts.js';

/** Why a grade is what it is, as a stable kebab code (the `reason` says it for a person). */
export const GRADE_CODES = [
  'solved', 'tests-fail', 'no-patch', 'patch-does-not-apply', 'patch-too-large', 'patch-empty', 'patch-crlf',
  'patch-no-trailing-newline', 'patch-malformed', 'patch-binary', 'no-code-change', 'guard-missing', 'runner-tampered',
  'test-files-written', 'test-code-replaced', 'guard-forged', 'runner-replaced', 'tracing-hook', 'native-code', 'guard-probed',
] as const;

/** The verdict on one Solver attempt (method §4); `grade.json` of `ssr solve` is exactly this. */
export const solverGradeSchema = z.object({
  reward: z.union([z.literal(1), z.literal(-1)]),
  /** Machine-readable cause: `solved` is the only one with reward +1. */
  code: z.enum(GRADE_CODES),
  reason: z.string(),
  /** How the patch applied (the tolerant chain), or null when there was none or it did not apply. */
  applied: z.enum(APPLY_METHODS).nullable(),
  /** Tests that passed on O and did not pass after the fix (missing counts as failed), sorted. */
  failingTests: z.array(z.string()),
  /** Paths of the dropped sections that touch test files (kept for older readers; see droppedSections). */
  droppedTestSections: z.array(z.string()),
  /** Every section of the patch left out before applying, with why (see sanitizePatch). */
  droppedSections: z.array(droppedSectionSchema),
  /** Signs that the run did not measure the code: `runner-tampered`, `results-mismatch`, `guard-missing`. */
  flags: z.array(z.string()),
  durationMs: z.number().nonnegative(),
});
export type SolverGrade = z.infer<typeof solverGradeSchema>;

export interface GradeSolutionOptions {
  provider: SandboxProvider;
  template: SandboxTemplate;
  /** The validated artifact the Solver worked on. */
  artifact: BugArtifact;
  /** The Solver's pred_patch.diff; null when it submitted nothing. */
  patch: string | null;
  /** The prior pred_patch.diff of a higher-order bug (method §6). */
  priorPatch?: string;
  /** Tests that passed on O, from the artifact's validation (see originalPassingTests). */
  originalPassing: readonly string[];
  /** Time limit of the test script, ms. */
  testTimeoutMs: number;
  /**
   * Whether validation's O run was guarded (ValidationResult.originalGuarded). When it was, the
   * grading run must be too and every test must pass by the runner's own record as well as by
   * the parser. Default false: the parser alone decides (for artifacts validated before guards).
   */
  originalGuarded?: boolean;
  /** What the guard reported on O's own runs (ValidationResult.toleratedTampering): an attempt may repeat exactly these. */
  toleratedTampering?: readonly string[];
  /** Where the grading run is counted (the episode's counter), when someone counts. */
  testRuns?: TestRunCounter;
}

/** The patch without its hunks that change doctest examples (read against the files in the sandbox); null when nothing is left. */
async function withoutExampleHunks(sandbox: Sandbox, patch: string): Promise<{ patch: string | null; dropped: DroppedSection[] }> {
  const files = parseUnifiedDiff(patch).files;
  const texts = new Map<string, string>();
  for (const file of files) {
    const path = file.newPath;
    if (file.kind !== 'modified' || path === null || !mayHoldDoctests(path)) continue;
    // A file the patch names but the tree lacks: the apply step judges it (a read failure is infrastructure).
    const present = await sandbox.exec(`test -f ${shellQuote(path)}`);
    if (present.exitCode === null) throw new EngineError('sandbox-failed', `checking ${path} in the grading sandbox failed: ${present.output.slice(-200)}`, { retryable: true });
    if (present.exitCode !== 0) continue;
    const text = (await sandbox.readFile(path)).toString('utf8');
    if (text.includes('>>>')) texts.set(path, text);
  }
  if (texts.size === 0) return { patch, dropped: [] };
  const { kept, dropped } = dropExampleHunks(files, texts);
  if (dropped.length === 0) return { patch, dropped };
  return { patch: kept.length === 0 ? null : formatGitDiff(kept), dropped };
}

/** Tests that passed on O: a valid artifact's FAIL_TO_PASS ∪ PASS_TO_PASS is exactly that set. */
export function originalPassingTests(validation: { failToPass: readonly string[]; passToPass: readonly string[] }): string[] {
  return [...new Set([...validation.failToPass, ...validation.passToPass])].sort();
}

const TEST_REASONS = new Set(['oracle-test-file', 'test-file', 'runner-config', 'doctest-example']);
type Verdict = Pick<SolverGrade, 'code' | 'reason' | 'applied' | 'failingTests'> & { flags?: string[] };

/**
 * Grade a Solver's patch exactly as method §4: sanitise it (only changes to code files count; see
 * sanitizePatch), then on a fresh sandbox at O + bug_inject (+ the prior patch of a higher-order
 * bug) apply what is left with the tolerant chain (git apply, --3way, patch --fuzz), restore
 * every file of test_files.txt to O, and run test_script.sh hardened (the guard: see
 * TEST_DRIVER) and the parser. +1 iff every test that passed on O passes — by the parser and,
 * when O's run was guarded, by the runner's own record too (missing, skipped, xfailed count as
 * failed). No patch, a refused patch, or one that does not apply is −1.
 *
 * @throws EngineError for infrastructure (and for a state that cannot be built: bad input) —
 *   never turned into a reward.
 */
export async function gradeSolution(options: GradeSolutionOptions): Promise<SolverGrade> {
  const started = Date.now();
  let sanitized = options.patch === null ? null : sanitizePatch(options.patch, options.artifact.testFiles);
  const dropped = [...(sanitized?.dropped ?? [])];
  const verdict = (grade: Verdict): SolverGrade => {
    const passedAllOriginal = grade.code === 'solved';
    const reward = scoreSolver({ applied: grade.applied !== null, passedAllOriginal: grade.applied !== null && passedAllOriginal });
    return {
      reward: reward.value === 1 ? 1 : -1, ...grade, flags: grade.flags ?? [], droppedSections: dropped,
      droppedTestSections: dropped.filter((section) => TEST_REASONS.has(section.reason)).map((section) => section.path), durationMs: Date.now() - started,
    };
  };
  if (sanitized === null) return verdict({ code: 'no-patch', reason: 'no patch was submitted', applied: null, failingTests: [] });
  // A patch with nothing to apply (empty, or nothing left once dropped) still gets its run, as an
  // empty diff always did: the verdict shows the bug is still there.
  const nothingLeft = sanitized.status === 'rejected' && (sanitized.code === 'no-code-change' || sanitized.code === 'patch-empty');
  if (sanitized.status === 'rejected' && !nothingLeft) return verdict({ code: sanitized.code, reason: sanitized.reason, applied: null, failingTests: [] });
  const { artifact } = options;

  const sandbox = await options.provider.acquire(options.template);
  try {
    // Files the ORIGINAL tree's runner configs name as setup files or reporters count as runner
    // config whatever their names (read before anything is applied, so a patch cannot move them).
    const runnerNamed = await originalRunnerNamedFiles(sandbox);
    if (runnerNamed.size > 0 && options.patch !== null) {
      sanitized = sanitizePatch(options.patch, artifact.testFiles, runnerNamed);
      dropped.splice(0, dropped.length, ...sanitized.dropped);
    }
    await applyBuggyState(sandbox, artifact, { weaken: false, priorPatch: options.priorPatch });
    let method: SolverGrade['applied'] = null;
    const narrowed = sanitized.status === 'ok' ? await withoutExampleHunks(sandbox, sanitized.patch) : null;
    if (narrowed) dropped.push(...narrowed.dropped);
    if (narrowed?.patch === null) {
      const what = narrowed.dropped.map((section) => section.path).join(', ');
      sanitized = { status: 'rejected', code: 'no-code-change', reason: `nothing is left once the hunks that change doctest examples (test code) are dropped: ${what}`, dropped };
    }
    if (sanitized.status === 'ok' && narrowed?.patch) {
      const applied = await applyDiff(sandbox, narrowed.patch, { label: 'pred_patch' });
      if (applied.status === 'failed') {
        // git apply's own message is the precise one ("No such file", "patch does not apply").
        const why = applied.attempts[0]?.output.trim().split('\n').slice(0, 3).join(' | ') ?? '';
        return verdict({ code: 'patch-does-not-apply', reason: `the patch does not apply (git apply, --3way and patch --fuzz all failed): ${why}`, applied: null, failingTests: [] });
      }
      method = applied.method;
    }
    // A listed code file hosts doctests: restoring it would undo the bug and the fix alike; its
    // examples are O's already (bug_inject.diff changes none, and the patch's hunks that do were dropped).
    await restoreFiles(sandbox, artifact.testFiles.filter((path) => !isDoctestHost(path)));
    // Restoring needed O's commit; the code under test must not find it (nor the bug patch in scratch).
    await forgetOriginal(sandbox);
    options.testRuns?.add('grading', 'full');
    const report = await runTests(sandbox, { testScript: artifact.testScript, testParser: artifact.testParser, timeoutMs: options.testTimeoutMs });
    const guard = runVerdict(report, options.originalPassing, options.originalGuarded ?? false, options.toleratedTampering ?? []);
    const mismatched = new Set(guard.mismatched);
    const failingTests = options.originalPassing.filter((id) => report.statuses[id] !== 'passed' || mismatched.has(id)).sort();
    const base = { applied: method, failingTests, flags: guard.flags };
    const outcome = `${failingTests.length} of the ${options.originalPassing.length} tests that pass on the original repo do not pass`;
    if (sanitized.status === 'rejected') return verdict({ ...base, code: sanitized.code, reason: `${sanitized.reason}; ${outcome}` });
    if (guard.fatal) return verdict({ ...base, code: guard.fatal.code, reason: guard.fatal.reason });
    if (failingTests.length === 0) {
      return verdict({ ...base, code: 'solved', reason: `all ${options.originalPassing.length} tests that pass on the original repo pass` });
    }
    const cause = report.timedOut ? ' (the test script timed out)' : report.parserFailure ? ` (the parser failed: ${report.parserFailure.message})` : '';
    const forged = guard.mismatched.length > 0 ? ` (${guard.mismatched.length} reported passed in the log but not by the runner)` : '';
    return verdict({ ...base, code: 'tests-fail', reason: `${outcome}${cause}${forged}` });
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}
