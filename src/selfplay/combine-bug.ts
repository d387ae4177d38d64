import { parseUnifiedDiff } from '../code/unified-diff.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { applyBuggyState } from '../roles/buggy-state.js';
import { priorCodeChanges } from '../roles/grading/prior-code-changes.js';
import { isEngineError } from '../util/engine-error.js';
import { diffAgainstHead } from '../workspace/diff-paths.js';
import { discardFromError, type Discard } from './discard.js';
import type { RunRepo, SelfplayContext } from './selfplay-context.js';

/** The order-2 bug_inject.diff, or why there is none. */
export type Combined =
  | { status: 'combined'; bugInject: string }
  /** The prior patch does not apply on top of the bug, or it has no code change left. */
  | { status: 'unusable'; reason: string }
  | { status: 'discarded'; discard: Discard };

const pathsOf = (diff: string): string[] => {
  try {
    return parseUnifiedDiff(diff).touchedPaths;
  } catch {
    return [];
  }
};

/**
 * An order-2 bug's bug_inject.diff: the whole change from O to O + bug_inject + the failed
 * attempt's patch (only what grading applied of it: its code changes, see priorCodeChanges), made by applying
 * both in a fresh sandbox and diffing against HEAD (= O) over the files either touches. So the
 * stored bug dir is self-contained: it validates and solves like any bug, no prior patch needed.
 */
export async function combineBugInject(ctx: SelfplayContext, run: RunRepo, parent: BugArtifact, priorPatch: string): Promise<Combined> {
  const code = priorCodeChanges(priorPatch, parent.testFiles);
  if (code.status === 'none') return { status: 'unusable', reason: code.reason };
  const prior = code.patch;
  const paths = [...new Set([...pathsOf(parent.bugInject), ...pathsOf(prior)])];
  return ctx.lanes.sandbox.add(async (): Promise<Combined> => {
    let sandbox;
    try {
      sandbox = await ctx.provider.acquire(run.template);
      await applyBuggyState(sandbox, parent, { weaken: false, priorPatch: prior });
      const bugInject = await diffAgainstHead(sandbox, paths);
      if (bugInject.trim() === '') return { status: 'unusable', reason: 'bug and patch cancel out' };
      return { status: 'combined', bugInject };
    } catch (error) {
      if (isEngineError(error) && error.code === 'artifact-invalid-input') return { status: 'unusable', reason: error.message };
      return { status: 'discarded', discard: discardFromError('combine', error) };
    } finally {
      await sandbox?.dispose().catch(() => undefined);
    }
  });
}
