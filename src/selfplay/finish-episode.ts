import type { EpisodeRecord } from '../corpus/episode-record.js';
import { engineStopped, type Discard } from './discard.js';
import { persistEpisode } from './persist-episode.js';
import { stageTimesOf, type SelfplayContext } from './selfplay-context.js';
import { toSolveAttempt, type AttemptOutcome } from './stages/04-solve.js';
import { buildEpisodeRecord, type RecordInput } from './stages/05-score.js';

/** The record's own fields, plus what finishing adds up: attempts, timings, effort. */
export interface FinishInput extends Pick<RecordInput, 'identity' | 'bugId' | 'valid' | 'failedCheck' | 'score' | 'discard' | 'injectorExit' | 'duplicateOf' | 'testRuns' | 'injectPhasesMs'> {
  attempts: readonly AttemptOutcome[];
  /** When the episode started (Date.now()). */
  started: number;
  durationsMs: { inject: number; validate: number; solve: number };
  /** Turns and tokens of the Injector's run (0 when there was none); the attempts' are added. */
  injector: { turns: number; tokens: number };
}

/** Build, persist and report an episode's record (the end of stage 5). */
export async function finishEpisode(ctx: SelfplayContext, input: FinishInput): Promise<EpisodeRecord> {
  const scoring = Date.now();
  const record = buildEpisodeRecord({
    identity: input.identity,
    bugId: input.bugId,
    valid: input.valid,
    failedCheck: input.failedCheck,
    score: input.score,
    discard: input.discard,
    durationsMs: { ...input.durationsMs, total: Date.now() - input.started },
    turns: input.injector.turns + input.attempts.reduce((sum, attempt) => sum + attempt.turns, 0),
    tokens: input.injector.tokens + input.attempts.reduce((sum, attempt) => sum + attempt.tokens, 0),
    leaks: input.attempts.flatMap((attempt) => attempt.leaks.map((flag) => ({ attempt: attempt.id, ...flag }))),
    injectorExit: input.injectorExit,
    ...(input.duplicateOf ? { duplicateOf: input.duplicateOf } : {}),
    ...(input.testRuns ? { testRuns: input.testRuns } : {}),
    ...(input.injectPhasesMs ? { injectPhasesMs: input.injectPhasesMs } : {}),
  });
  await persistEpisode(ctx.store, record, input.attempts.map(toSolveAttempt));
  stageTimesOf(ctx, record.step).score += Date.now() - scoring;
  ctx.progress.finished(describeRecord(record));
  return record;
}

/** One line about a recorded episode, for progress output. */
export function describeRecord(record: EpisodeRecord): string {
  const head = `${record.id} (order ${record.order}${record.order === 1 ? `, ${record.strategy}` : ''})`;
  if (record.status === 'discarded') return `${head}: discarded: ${record.discardReason}`;
  const verdict =
    record.valid === null ? (record.injectorExit?.status === 'gave-up' ? `gave up: ${record.injectorExit.reason}` : 'nothing submitted')
    : record.valid ? (record.duplicateOf ? `valid, a duplicate of ${record.duplicateOf} (counted once)` : 'valid')
    : record.order === 2 && record.solverAttempts > 0 ? `a Solver task (fails ${record.failedCheck})`
    : `invalid (${record.failedCheck})`;
  const solves = record.solverAttempts > 0 ? `, solved ${record.solved}/${record.solverAttempts}` : '';
  const reward = record.rewards.injector === null ? '' : `, injector reward ${record.rewards.injector.toFixed(3)}`;
  return `${head}: ${verdict}${solves}${reward}`;
}

/**
 * An episode whose attempts were cut off because the run is stopping is discarded as a whole:
 * a solve rate over the attempts that happened to finish first would be biased.
 */
export function stoppedDuring(ctx: SelfplayContext, attempts: readonly AttemptOutcome[]): Discard | null {
  return ctx.health.stopped && attempts.some((attempt) => attempt.status === 'discarded') ? engineStopped(ctx.health.stopped) : null;
}
