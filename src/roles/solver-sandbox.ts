import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { applyBuggyState } from './buggy-state.js';
import { forgetOriginal } from './forget-original.js';

export interface SolverSandboxOptions {
  provider: SandboxProvider;
  template: SandboxTemplate;
  artifact: BugArtifact;
  /** A failed Solver's pred_patch.diff, for a higher-order bug. */
  priorPatch?: string;
}

/**
 * The Solver's sandbox (method §4): O + bug_inject.diff + test_weaken.diff (+ the prior patch of a
 * higher-order bug), then forgetOriginal: the scratch dir emptied, `.git` wiped and re-initialised
 * with one commit. The Solver sees no history, no artifact file, no test script, parser or list.
 * The caller disposes it.
 */
export async function prepareSolverSandbox(options: SolverSandboxOptions): Promise<Sandbox> {
  const sandbox = await options.provider.acquire(options.template);
  try {
    await applyBuggyState(sandbox, options.artifact, { weaken: true, priorPatch: options.priorPatch });
    await forgetOriginal(sandbox);
    return sandbox;
  } catch (error) {
    await sandbox.dispose().catch(() => undefined);
    throw error;
  }
}
