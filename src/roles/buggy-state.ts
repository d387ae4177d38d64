import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import { applyDiff, type ApplyResult } from '../workspace/apply-diff.js';
import { priorCodeChanges } from './grading/prior-code-changes.js';

export interface BuggyStateOptions {
  /** Also apply test_weaken.diff (the Solver's sandbox; grading leaves it out). */
  weaken: boolean;
  /** A failed Solver's pred_patch.diff, for a higher-order bug (method §6). */
  priorPatch?: string;
}

function mustApply(result: ApplyResult, what: string): void {
  if (result.status === 'applied') return;
  const first = result.attempts[0]?.output.trim().split('\n').slice(0, 3).join(' | ') ?? '';
  throw new EngineError('artifact-invalid-input', `${what} does not apply to the original repository: ${first}`);
}

/**
 * Bring a fresh sandbox at O to the buggy state: bug_inject.diff, then test_weaken.diff when asked,
 * then the prior pred_patch.diff of a higher-order bug. Of the prior patch only its code changes
 * apply (see priorCodeChanges), so the test files and the test machinery are exactly those of B or
 * W in both the Solver's sandbox and grading.
 *
 * @throws EngineError `artifact-invalid-input` when a diff does not apply (a validated artifact
 *   always does, so this is bad input, never a reward), or the sandbox's own errors.
 */
export async function applyBuggyState(sandbox: Sandbox, artifact: BugArtifact, options: BuggyStateOptions): Promise<void> {
  mustApply(await applyDiff(sandbox, artifact.bugInject, { label: 'bug_inject' }), 'bug_inject.diff');
  if (options.weaken) mustApply(await applyDiff(sandbox, artifact.testWeaken, { label: 'test_weaken' }), 'test_weaken.diff');
  if (options.priorPatch !== undefined) {
    const prior = priorCodeChanges(options.priorPatch, artifact.testFiles);
    if (prior.status === 'none') throw new EngineError('artifact-invalid-input', `the prior pred_patch.diff holds no code change a higher-order bug can build on (${prior.reason})`);
    mustApply(await applyDiff(sandbox, prior.patch, { label: 'prior_pred_patch' }), 'the prior pred_patch.diff (on top of bug_inject.diff)');
  }
}
