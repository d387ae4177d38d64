import { readTrajectory } from '../agent/trajectory.js';
import type { EpisodeRecord } from '../corpus/episode-record.js';
import { readStoredBug, type StoredBug } from '../corpus/read-stored-bug.js';
import type { SolveAttempt } from '../corpus/solves-record.js';
import { originalPassingTests } from '../roles/grade-solution.js';
import type { ValidationResult } from '../validator/validate-artifact.js';
import { combineBugInject } from './combine-bug.js';
import { engineStopped } from './discard.js';
import { attemptNumber, higherOrderEpisodeId, isAttemptOf, runSeed } from './episode-ids.js';
import { finishEpisode, stoppedDuring, type FinishInput } from './finish-episode.js';
import { TestRunCounter } from '../harness/test-run-counts.js';
import { runRepo, type SelfplayContext } from './selfplay-context.js';
import { validateStage } from './stages/03-validate.js';
import { solveStage } from './stages/04-solve.js';
import { scoreEpisode, type EpisodeIdentity } from './stages/05-score.js';

/** The failed (graded −1) attempts of one episode, in attempt order: the candidates for order 2. */
export function failedAttemptsOf(attempts: readonly SolveAttempt[], episodeId: string): SolveAttempt[] {
  return attempts.filter((attempt) => attempt.status === 'failed' && isAttemptOf(attempt.id, episodeId)).sort((a, b) => attemptNumber(a.id) - attemptNumber(b.id));
}

/**
 * Whether an order-2 bug is a Solver task: only a valid one. An invalid bug is never solved nor
 * trained on, whichever check failed. (`inverse-redundancy` was once let through, since a failed
 * attempt's residue is often a file that no longer contributes; but then a bug recorded
 * `valid: false` got Solver attempts, rewards and samples: a task the validator rejected, trained
 * on.) Such candidates are kept for analysis, and the next failed attempt is tried.
 */
export function solvable(validation: Pick<ValidationResult, 'valid' | 'failedCheck'>): boolean {
  return validation.valid;
}

/** An order-2 episode uses up the cap when its bug got Solver attempts, or it was lost to the infrastructure (it is retried on resume). */
export function countsTowardCap(record: Pick<EpisodeRecord, 'status' | 'solverAttempts'>): boolean {
  return record.status === 'discarded' || record.solverAttempts > 0;
}

/** The patch an attempt submitted last, from its trajectory's exit record (durable across resumes). */
async function submittedPatch(path: string): Promise<string | null> {
  const trajectory = await readTrajectory(path).catch(() => null);
  const submission = trajectory?.exit?.submission;
  return submission?.type === 'solver' ? submission.patch : null;
}

/**
 * method §6: grow order-2 bugs from a completed order-1 episode's failed attempts, in attempt
 * order, until `higherOrderCap` of them got Solver attempts. A candidate whose patch does not
 * apply or changes no code, or whose combined bug repeats an earlier candidate's, is skipped; one
 * whose combined bug is no Solver task (see {@link solvable}) is kept for analysis and the next is
 * tried. Attempts are graded against the
 * parent's oracle: the tests that passed on O. Everything is derived from the store (solves.json,
 * trajectories), so a resumed run grows exactly the same episodes. Never beyond order 2.
 */
export async function growHigherOrder(ctx: SelfplayContext, parent: EpisodeRecord): Promise<EpisodeRecord[]> {
  if (ctx.settings.higherOrderCap === 0 || parent.bugId === null) return [];
  const bug = await readStoredBug(ctx.store.paths.bugDir(parent.bugId));
  if (!bug?.solves) return [];
  const records: EpisodeRecord[] = [];
  // Two failed attempts can leave the same buggy state: it is one bug, judged (and solved) once.
  const seen = new Set<string>();
  let grown = 0;
  for (const attempt of failedAttemptsOf(bug.solves.attempts, parent.id)) {
    if (grown >= ctx.settings.higherOrderCap || ctx.health.stopped) break;
    const id = higherOrderEpisodeId(parent.id, attempt.id);
    const done = ctx.store.hasEpisode(id) ? ctx.store.episode(id)! : null;
    if (done?.bugId) {
      const stored = await readStoredBug(ctx.store.paths.bugDir(done.bugId));
      if (stored) seen.add(stored.artifact.bugInject);
    }
    const patch = done ? null : await submittedPatch(ctx.store.trajectoryPath(attempt.id));
    const record = done ?? (patch === null ? null : await runOrderTwo(ctx, { parent, bug, attempt, id, patch, seen }));
    if (record === null) continue;
    if (done) {
      ctx.progress.planned(1);
      ctx.progress.finished(`${id}: done in an earlier run`, false);
    }
    records.push(record);
    if (countsTowardCap(record)) grown++;
  }
  return records;
}

interface OrderTwoInput {
  parent: EpisodeRecord;
  bug: StoredBug;
  attempt: SolveAttempt;
  id: string;
  patch: string;
  /** The bug_inject.diff of every order-2 bug of this parent already grown: a repeat is skipped. */
  seen: Set<string>;
}

/** One order-2 episode: combine, validate, solve, score (Solver rewards only). Null when the patch makes no bug. */
async function runOrderTwo(ctx: SelfplayContext, input: OrderTwoInput): Promise<EpisodeRecord | null> {
  const started = Date.now();
  const { parent, bug, attempt, id } = input;
  const testRuns = new TestRunCounter();
  const finish = (record: FinishInput): Promise<EpisodeRecord> => finishEpisode(ctx, { ...record, testRuns: testRuns.snapshot() });
  const combined = await combineBugInject(ctx, runRepo(ctx, parent.repo), bug.artifact, input.patch);
  if (combined.status === 'unusable') return null;
  if (combined.status === 'combined') {
    if (input.seen.has(combined.bugInject)) return null;
    input.seen.add(combined.bugInject);
  }
  ctx.progress.planned(1);
  const identity: EpisodeIdentity = {
    id, step: parent.step, repo: parent.repo, strategy: parent.strategy, order: 2, parentBugId: parent.bugId, attemptOf: attempt.id, policyVersion: ctx.policy.version,
  };
  const base = { identity, started, attempts: [], score: null, discard: null, bugId: null, valid: null, failedCheck: null, injector: { turns: 0, tokens: 0 } };
  // No Injector at order 2: making the combined bug stands in for the inject stage.
  const durations = { inject: Date.now() - started, validate: 0, solve: 0 };
  if (combined.status === 'discarded') return finish({ ...base, discard: ctx.health.stopped ? engineStopped(ctx.health.stopped) : combined.discard, durationsMs: durations });

  const artifact = { ...bug.artifact, bugInject: combined.bugInject, metadata: undefined };
  const validated = await validateStage(ctx, {
    repo: parent.repo,
    artifact,
    metadata: { strategy: parent.strategy, order: 2, parentBugId: parent.bugId, attemptOf: attempt.id, episodeId: id, policyVersion: identity.policyVersion },
    testRuns,
  });
  durations.validate = validated.durationMs;
  if (validated.status === 'discarded') return finish({ ...base, discard: validated.discard, durationsMs: durations });
  const { validation, bugId } = validated;
  if (!solvable(validation)) {
    const score = scoreEpisode({ verdict: { kind: 'none' }, attempts: [], attemptsWanted: 0, alpha: ctx.settings.alpha });
    return finish({ ...base, bugId, valid: false, failedCheck: validation.failedCheck, score, durationsMs: durations });
  }
  const solved = await solveStage(ctx, {
    episodeId: id, repo: parent.repo, artifact, originalPassing: originalPassingTests(bug.validation), originalGuarded: bug.validation.originalGuarded, toleratedTampering: bug.validation.toleratedTampering, count: ctx.settings.attempts, seed: runSeed(ctx.settings.seed, id), testRuns,
  });
  durations.solve = solved.durationMs;
  const score = scoreEpisode({ verdict: { kind: 'none' }, attempts: solved.attempts, attemptsWanted: ctx.settings.attempts, alpha: ctx.settings.alpha });
  const discard = stoppedDuring(ctx, solved.attempts);
  return finish({ ...base, bugId, valid: validation.valid, failedCheck: validation.failedCheck, score, discard, attempts: solved.attempts, durationsMs: durations });
}
