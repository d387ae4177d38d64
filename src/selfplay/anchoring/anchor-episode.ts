import type { EpisodeRecord } from '../../corpus/episode-record.js';
import { storedValidationSchema } from '../../corpus/stored-validation.js';
import { TestRunCounter } from '../../harness/test-run-counts.js';
import { originalPassingTests } from '../../roles/grade-solution.js';
import { validateForGrading } from '../../roles/grading-oracle.js';
import { inverseRedundancyFor } from '../../validator/inverse-redundancy-mode.js';
import { discardFromError } from '../discard.js';
import { finishEpisode, stoppedDuring } from '../finish-episode.js';
import { runRepo, testTimeoutOf, type SelfplayContext } from '../selfplay-context.js';
import type { PlannedEpisode } from '../stages/01-prepare.js';
import { solveStage } from '../stages/04-solve.js';
import { scoreEpisode, type EpisodeIdentity } from '../stages/05-score.js';

/**
 * An anchor episode: the real bug is copied into the run's bugs/ (a JSONL instance validated
 * first, as `ssr eval` does) and solved by N Solver attempts on its own commit's image, graded
 * exactly as a synthetic bug's are; its attempts form one Solver group like any bug's. No
 * Injector runs, so there is no injector reward; the record is marked `anchor: true`.
 */
export async function solveAnchorBug(ctx: SelfplayContext, planned: PlannedEpisode): Promise<EpisodeRecord> {
  const started = Date.now();
  const anchor = planned.anchor!;
  const testRuns = new TestRunCounter();
  const template = ctx.anchors?.templates.get(anchor.instanceId) ?? runRepo(ctx, planned.repo).template;
  const target = { repo: anchor.repo, template };
  const identity: EpisodeIdentity = {
    id: planned.id, step: planned.step, repo: planned.repo, strategy: planned.strategy, order: 1, parentBugId: null, attemptOf: null, policyVersion: ctx.policy.version, anchor: true,
  };
  const none = { identity, started, attempts: [], score: null, bugId: null, valid: null, failedCheck: null, injector: { turns: 0, tokens: 0 } };
  const validating = Date.now();
  let validation = anchor.validation;
  if (!validation) {
    try {
      const oracle = await validateForGrading(anchor.artifact, {
        repo: anchor.repo, template, provider: ctx.provider, testTimeoutMs: testTimeoutOf(ctx, anchor.repo), queue: ctx.lanes.sandbox, baselines: ctx.baselines, testRuns,
        inverseRedundancy: inverseRedundancyFor(anchor.kind),
      });
      validation = storedValidationSchema.parse(oracle.validation);
    } catch (error) {
      const discard = discardFromError('validate', error);
      await ctx.health.reportFailure(discard.code, discard.detail);
      return finishEpisode(ctx, { ...none, discard, durationsMs: { inject: 0, validate: Date.now() - validating, solve: 0 }, testRuns: testRuns.snapshot() });
    }
  }
  const metadata = { repo: anchor.repo.id, commit: anchor.repo.commit, strategy: anchor.kind, order: 1 as const, parentBugId: null, attemptOf: null, episodeId: planned.id, policyVersion: ctx.policy.version };
  const write = await ctx.store.writeBug({ artifact: anchor.artifact, validation, metadata });
  const bugId = write.status === 'duplicate' ? write.of : write.id;
  const durations = { inject: 0, validate: Date.now() - validating, solve: 0 };
  if (!validation.valid) {
    return finishEpisode(ctx, { ...none, bugId, valid: false, failedCheck: validation.failedCheck, discard: null, durationsMs: durations, testRuns: testRuns.snapshot() });
  }
  const solved = await solveStage(ctx, {
    episodeId: planned.id, repo: planned.repo, artifact: anchor.artifact, originalPassing: originalPassingTests(validation), originalGuarded: validation.originalGuarded, toleratedTampering: validation.toleratedTampering ?? [],
    count: ctx.settings.attempts, seed: planned.seed, testRuns, target,
  });
  durations.solve = solved.durationMs;
  const score = scoreEpisode({ verdict: { kind: 'none' }, attempts: solved.attempts, attemptsWanted: ctx.settings.attempts, alpha: ctx.settings.alpha });
  return finishEpisode(ctx, {
    ...none, bugId, valid: true, failedCheck: null, score, discard: stoppedDuring(ctx, solved.attempts), attempts: solved.attempts, durationsMs: durations, testRuns: testRuns.snapshot(),
  });
}
