import type { AgentExit } from '../agent/agent-exit.js';
import type { EpisodeRecord } from '../corpus/episode-record.js';
import { originalPassingTests } from '../roles/grade-solution.js';
import { finishEpisode, stoppedDuring, type FinishInput } from './finish-episode.js';
import { injectorRunsOf, TestRunCounter } from '../harness/test-run-counts.js';
import { growHigherOrder } from './higher-order.js';
import { solveAnchorBug } from './anchoring/anchor-episode.js';
import type { SelfplayContext } from './selfplay-context.js';
import type { PlannedEpisode } from './stages/01-prepare.js';
import { injectStage } from './stages/02-inject.js';
import { validateStage } from './stages/03-validate.js';
import { solveStage } from './stages/04-solve.js';
import { scoreEpisode, type EpisodeIdentity } from './stages/05-score.js';

/**
 * One order-1 episode end to end, then the order-2 episodes grown from its failed attempts
 * (method §6). A completed episode already in the store is not run again (resume); one the run is
 * too late for (the engine went away) is not started.
 * @returns the episode's record, or null when it was not started.
 */
export async function runEpisode(ctx: SelfplayContext, planned: PlannedEpisode): Promise<EpisodeRecord | null> {
  let record = ctx.store.hasEpisode(planned.id) ? ctx.store.episode(planned.id)! : null;
  if (record) ctx.progress.finished(`${planned.id}: done in an earlier run`, false);
  else if (ctx.health.stopped) return null;
  else record = planned.anchor ? await solveAnchorBug(ctx, planned) : planned.corpusBug ? await solveCorpusBug(ctx, planned) : await injectAndSolve(ctx, planned);
  // An anchor bug's failed attempts grow nothing: order 2 is built on the run repo's commit, an anchor's may be another.
  if (record.status === 'completed' && record.order === 1 && record.anchor !== true && record.valid === true && record.bugId !== null) await growHigherOrder(ctx, record);
  return record;
}

function identityOf(ctx: SelfplayContext, planned: PlannedEpisode): EpisodeIdentity {
  return {
    id: planned.id, step: planned.step, repo: planned.repo, strategy: planned.strategy, order: 1, parentBugId: null, attemptOf: null, policyVersion: ctx.policy.version,
    ...(planned.strategyNote ? { strategyNote: planned.strategyNote } : {}),
  };
}

/** Stages 2–5: inject, validate, solve, score. */
async function injectAndSolve(ctx: SelfplayContext, planned: PlannedEpisode): Promise<EpisodeRecord> {
  const started = Date.now();
  const identity = identityOf(ctx, planned);
  // Every test run of the episode (validation's, grading's) is counted here, read when it finishes.
  const testRuns = new TestRunCounter();
  const finish = (input: FinishInput): Promise<EpisodeRecord> => finishEpisode(ctx, { ...input, testRuns: testRuns.snapshot() });
  const base = { identity, started, attempts: [], score: null, discard: null, bugId: null, valid: null, failedCheck: null };
  const injected = await injectStage(ctx, planned);
  const durations = { inject: injected.durationMs, validate: 0, solve: 0 };
  if (injected.status === 'discarded') return finish({ ...base, discard: injected.discard, durationsMs: durations, injector: { turns: 0, tokens: 0 } });
  const injector = { turns: injected.exit.turns, tokens: injected.exit.usage.promptTokens + injected.exit.usage.completionTokens };
  const ran = { ...base, injectorExit: injectorExitOf(injected.exit), injectPhasesMs: injected.phasesMs };
  const injectorRuns = injected.status === 'submitted' ? injectorRunsOf(injected.artifact.metadata) : null;
  if (injectorRuns) testRuns.addAll({ injector: injectorRuns });
  if (injected.status === 'unusable') {
    // An unusable test_files.txt is an artifact that fails `existence`; no submission at all is no artifact.
    const score = scoreEpisode({ verdict: { kind: 'no-artifact' }, attempts: [], attemptsWanted: ctx.settings.attempts, alpha: ctx.settings.alpha });
    const judged = injected.problem === null ? { valid: null, failedCheck: null } : { valid: false, failedCheck: 'existence' };
    return finish({ ...ran, ...judged, score, durationsMs: durations, injector });
  }

  const validated = await validateStage(ctx, {
    repo: planned.repo,
    artifact: injected.artifact,
    metadata: { strategy: planned.strategy, order: 1, parentBugId: null, attemptOf: null, episodeId: planned.id, policyVersion: identity.policyVersion },
    testRuns,
  });
  durations.validate = validated.durationMs;
  if (validated.status === 'discarded') return finish({ ...ran, discard: validated.discard, durationsMs: durations, injector });
  const { validation, bugId } = validated;
  // Same buggy tree as a valid bug stored earlier in this run: recorded, never counted as a second valid bug.
  const duplicate = validated.write.status === 'duplicate' ? { duplicateOf: validated.write.of } : {};
  if (!validation.valid) {
    const score = scoreEpisode({ verdict: { kind: 'invalid', failedCheck: validation.failedCheck! }, attempts: [], attemptsWanted: ctx.settings.attempts, alpha: ctx.settings.alpha });
    return finish({ ...ran, bugId, valid: false, failedCheck: validation.failedCheck, score, durationsMs: durations, injector });
  }
  const solved = ctx.settings.attempts === 0
    ? { attempts: [], durationMs: 0 }
    : await solveStage(ctx, { episodeId: planned.id, repo: planned.repo, artifact: injected.artifact, originalPassing: originalPassingTests(validation), originalGuarded: validation.originalGuarded, toleratedTampering: validation.toleratedTampering ?? [], count: ctx.settings.attempts, seed: planned.seed, testRuns });
  durations.solve = solved.durationMs;
  const score = scoreEpisode({ verdict: { kind: 'valid' }, attempts: solved.attempts, attemptsWanted: ctx.settings.attempts, alpha: ctx.settings.alpha });
  const discard = stoppedDuring(ctx, solved.attempts);
  return finish({ ...ran, ...duplicate, bugId, valid: true, failedCheck: null, score, discard, attempts: solved.attempts, durationsMs: durations, injector });
}

/** How the Injector's run ended, for the record: a give-up keeps its reason apart from format errors. */
function injectorExitOf(exit: AgentExit): NonNullable<EpisodeRecord['injectorExit']> {
  return { status: exit.exitStatus, reason: exit.gaveUp ?? null };
}

/** Solve-only mode (`--corpus`): the stored bug is copied into this run and solved; no Injector, no injector reward. */
async function solveCorpusBug(ctx: SelfplayContext, planned: PlannedEpisode): Promise<EpisodeRecord> {
  const started = Date.now();
  const bug = planned.corpusBug!;
  const testRuns = new TestRunCounter();
  const { id: _id, buggyTreeHash: _hash, ...metadata } = bug.metadata;
  const write = await ctx.store.writeBug({ artifact: bug.artifact, validation: bug.validation, metadata });
  const bugId = write.status === 'duplicate' ? write.of : write.id;
  const identity: EpisodeIdentity = { ...identityOf(ctx, planned), order: metadata.order, parentBugId: metadata.parentBugId, attemptOf: metadata.attemptOf };
  const solved = await solveStage(ctx, {
    episodeId: planned.id, repo: planned.repo, artifact: bug.artifact, originalPassing: originalPassingTests(bug.validation), originalGuarded: bug.validation.originalGuarded, toleratedTampering: bug.validation.toleratedTampering, count: ctx.settings.attempts, seed: planned.seed, testRuns,
  });
  const score = scoreEpisode({ verdict: { kind: 'none' }, attempts: solved.attempts, attemptsWanted: ctx.settings.attempts, alpha: ctx.settings.alpha });
  const discard = stoppedDuring(ctx, solved.attempts);
  return finishEpisode(ctx, {
    identity, bugId, valid: true, failedCheck: null, score, discard, attempts: solved.attempts, started,
    durationsMs: { inject: 0, validate: 0, solve: solved.durationMs }, injector: { turns: 0, tokens: 0 }, testRuns: testRuns.snapshot(),
  });
}
