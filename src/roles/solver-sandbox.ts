import type { BugArtifact } from '../artifact/bug-artifact.js';
import { REPO_DIR, SCRATCH_DIR, type Sandbox, type SandboxProvider, type SandboxTemplate } from '../sandbox/sandbox.js';
import { execMustSucceed } from '../workspace/exec-checked.js';
import { reinitGit } from '../workspace/reinit-git.js';
import { applyBuggyState } from './buggy-state.js';

export interface SolverSandboxOptions {
  provider: SandboxProvider;
  template: SandboxTemplate;
  artifact: BugArtifact;
  /** A failed Solver's pred_patch.diff, for a higher-order bug. */
  priorPatch?: string;
}

// The patches applied above went through the scratch dir; bytecode caches were compiled from the
// original code. Neither may reach the Solver, so both go before the history is re-made.
const SCRUB_SCRIPT = `
set -eu
find ${SCRATCH_DIR} -mindepth 1 -delete
find ${REPO_DIR} -name __pycache__ -type d -prune -exec rm -rf {} +
`;

/**
 * The Solver's sandbox (method §4): O + bug_inject.diff + test_weaken.diff (+ the prior patch of a
 * higher-order bug), the scratch dir emptied, `.git` wiped and re-initialised with one commit. The
 * Solver sees no history, no artifact file, no test script, parser or list. The caller disposes it.
 */
export async function prepareSolverSandbox(options: SolverSandboxOptions): Promise<Sandbox> {
  const sandbox = await options.provider.acquire(options.template);
  try {
    await applyBuggyState(sandbox, options.artifact, { weaken: true, priorPatch: options.priorPatch });
    await execMustSucceed(sandbox, 'scrubbing the Solver sandbox', SCRUB_SCRIPT);
    await reinitGit(sandbox);
    return sandbox;
  } catch (error) {
    await sandbox.dispose().catch(() => undefined);
    throw error;
  }
}
