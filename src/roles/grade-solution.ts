import { z } from 'zod';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { scoreSolver } from '../reward/score-solver.js';
import { runTests } from '../harness/run-tests.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { APPLY_METHODS, applyDiff } from '../workspace/apply-diff.js';
import { restoreFiles } from '../workspace/restore-files.js';
import { applyBuggyState } from './buggy-state.js';
import { dropTestFileSections } from './drop-test-sections.js';

/** The verdict on one Solver attempt (SPEC §4); `grade.json` of `ssr solve` is exactly this. */
export const solverGradeSchema = z.object({
  reward: z.union([z.literal(1), z.literal(-1)]),
  reason: z.string(),
  /** How the patch applied (the tolerant chain), or null when there was none or it did not apply. */
  applied: z.enum(APPLY_METHODS).nullable(),
  /** Tests that passed on O and did not pass after the fix (missing counts as failed), sorted. */
  failingTests: z.array(z.string()),
  /** Sections of the patch on oracle test files, dropped before applying (see dropTestFileSections). */
  droppedTestSections: z.array(z.string()),
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
  /** The prior pred_patch.diff of a higher-order bug (SPEC §6). */
  priorPatch?: string;
  /** Tests that passed on O, from the artifact's validation (see originalPassingTests). */
  originalPassing: readonly string[];
  /** Time limit of the test script, ms. */
  testTimeoutMs: number;
}

/** Tests that passed on O: a valid artifact's FAIL_TO_PASS ∪ PASS_TO_PASS is exactly that set. */
export function originalPassingTests(validation: { failToPass: readonly string[]; passToPass: readonly string[] }): string[] {
  return [...new Set([...validation.failToPass, ...validation.passToPass])].sort();
}

/**
 * Grade a Solver's patch exactly as SPEC §4: a fresh sandbox at O + bug_inject (+ the prior patch
 * of a higher-order bug); apply the patch with the tolerant chain (git apply, --3way, patch
 * --fuzz) after dropping its sections on oracle test files; restore every file of test_files.txt
 * to O; run test_script.sh and the parser. +1 iff every test that passed on O passes (missing
 * counts as failed); no patch, or one that does not apply, is −1.
 *
 * @throws EngineError for infrastructure (and for a state that cannot be built: bad input) —
 *   never turned into a reward.
 */
export async function gradeSolution(options: GradeSolutionOptions): Promise<SolverGrade> {
  const started = Date.now();
  const verdict = (grade: Omit<SolverGrade, 'durationMs' | 'droppedTestSections' | 'reward'>, dropped: string[] = []): SolverGrade => {
    const reward = scoreSolver({ applied: grade.applied !== null, passedAllOriginal: grade.applied !== null && grade.failingTests.length === 0 });
    return { reward: reward.value === 1 ? 1 : -1, ...grade, droppedTestSections: dropped, durationMs: Date.now() - started };
  };
  if (options.patch === null) return verdict({ reason: 'no patch was submitted', applied: null, failingTests: [] });
  const { artifact } = options;
  const { patch, dropped } = dropTestFileSections(options.patch, artifact.testFiles);

  const sandbox = await options.provider.acquire(options.template);
  try {
    await applyBuggyState(sandbox, artifact, { weaken: false, priorPatch: options.priorPatch });
    const applied = await applyDiff(sandbox, patch, { label: 'pred_patch' });
    if (applied.status === 'failed') {
      const why = applied.attempts.at(-1)?.output.trim().split('\n').slice(0, 3).join(' | ') ?? '';
      return verdict({ reason: `the patch does not apply (git apply, --3way and patch --fuzz all failed): ${why}`, applied: null, failingTests: [] }, dropped);
    }
    await restoreFiles(sandbox, artifact.testFiles);
    const report = await runTests(sandbox, { testScript: artifact.testScript, testParser: artifact.testParser, timeoutMs: options.testTimeoutMs });
    const failingTests = options.originalPassing.filter((id) => report.statuses[id] !== 'passed').sort();
    if (failingTests.length === 0) {
      return verdict({ reason: `all ${options.originalPassing.length} tests that pass on the original repo pass`, applied: applied.method, failingTests }, dropped);
    }
    const cause = report.timedOut ? ' (the test script timed out)' : report.parserFailure ? ` (the parser failed: ${report.parserFailure.message})` : '';
    const reason = `${failingTests.length} of the ${options.originalPassing.length} tests that pass on the original repo do not pass${cause}`;
    return verdict({ reason, applied: applied.method, failingTests }, dropped);
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}
