import type { BugArtifact } from '../../artifact/bug-artifact.js';
import type { BugMetadata } from '../../corpus/bug-metadata.js';
import type { WriteBugResult } from '../../corpus/run-store.js';
import { validateArtifact, type ValidationResult } from '../../validator/validate-artifact.js';
import { discardFromError, engineStopped, type Discard } from '../discard.js';
import type { TestRunCounter } from '../../harness/test-run-counts.js';
import { runRepo, testTimeoutOf, type SelfplayContext } from '../selfplay-context.js';

export type ValidateOutcome =
  | {
      status: 'judged';
      validation: ValidationResult;
      /** The stored bug: this artifact's dir, or the valid bug with the same buggy tree it duplicates. */
      bugId: string;
      write: WriteBugResult;
      durationMs: number;
    }
  | { status: 'discarded'; discard: Discard; durationMs: number };

export interface ValidateInput {
  repo: string;
  artifact: BugArtifact;
  /** metadata.json without what the stage fills in (repo, commit) and the store derives (id, tree hash). */
  metadata: Omit<BugMetadata, 'id' | 'buggyTreeHash' | 'repo' | 'commit'>;
  /** The episode's count of test runs: the validation's runs are added. */
  testRuns?: TestRunCounter;
}

/**
 * Stage 3 (validate): the consistency checks of method §3 (sandboxes from the `sandbox` lane, the
 * original runs shared through the run's baseline cache), then the bug dir is stored, valid or
 * not (invalid ones are kept for analysis; a valid duplicate of a stored buggy tree is not
 * stored twice). A verdict voided by the infrastructure is a discard, never "invalid".
 */
export async function validateStage(ctx: SelfplayContext, input: ValidateInput): Promise<ValidateOutcome> {
  const started = Date.now();
  const durationMs = (): number => Date.now() - started;
  if (ctx.health.stopped) return { status: 'discarded', discard: engineStopped(ctx.health.stopped), durationMs: 0 };
  const { repo, template } = runRepo(ctx, input.repo);
  let validation: ValidationResult;
  try {
    validation = await validateArtifact(input.artifact, {
      repo, template, provider: ctx.provider, testTimeoutMs: testTimeoutOf(ctx, repo), queue: ctx.lanes.sandbox, baselines: ctx.baselines,
      ...(input.testRuns ? { testRuns: input.testRuns } : {}),
    });
  } catch (error) {
    const discard = discardFromError('validate', error);
    await ctx.health.reportFailure(discard.code, discard.detail);
    return { status: 'discarded', discard, durationMs: durationMs() };
  }
  if (validation.infrastructureError) {
    const { check, reason } = validation.infrastructureError;
    await ctx.health.reportFailure(undefined, reason);
    const discard = ctx.health.stopped ? engineStopped(ctx.health.stopped) : { category: 'validate:infrastructure', detail: `${check}: ${reason}` };
    return { status: 'discarded', discard, durationMs: durationMs() };
  }
  ctx.health.reportSuccess();
  const write = await ctx.store.writeBug({
    artifact: input.artifact,
    validation,
    metadata: { ...input.metadata, repo: repo.id, commit: repo.commit },
  });
  return { status: 'judged', validation, bugId: write.status === 'duplicate' ? write.of : write.id, write, durationMs: durationMs() };
}
