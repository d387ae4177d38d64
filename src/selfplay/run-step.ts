import type { EpisodeRecord } from '../corpus/episode-record.js';
import type { StoredBug } from '../corpus/read-stored-bug.js';
import { aggregateStepMetrics } from './aggregate-step.js';
import { runEpisode } from './run-episode.js';
import { noHistoryNotes, type SelfplayContext } from './selfplay-context.js';
import { planStep } from './stages/01-prepare.js';
import { emitStage } from './stages/06-emit.js';
import { collectEvidence } from './step-evidence.js';
import type { StepMetrics } from './step-metrics.js';

export type StepOutcome =
  | { status: 'completed'; metrics: StepMetrics }
  /** The step's metrics line exists: it was finished by an earlier run. */
  | { status: 'done-before' }
  /** The engine went away: what finished is stored, the step is not (a re-run continues it). */
  | { status: 'stopped'; reason: string };

/**
 * The policy version a step was generated with: its episodes', else the current one. Not simply
 * the current version: a run killed after the trainer answered a step, and resumed, starts at
 * the trainer's new version, yet that step's samples belong to the version before (its file and
 * the trainer's expected_version, which then reports the step as already done).
 */
export function stepVersion(records: readonly Pick<EpisodeRecord, 'policyVersion'>[], current: number): number {
  return records.length === 0 ? current : Math.max(...records.map((record) => record.policyVersion));
}

export interface StepInput {
  /** 1-based. */
  step: number;
  repos: readonly string[];
  /** Solve-only mode: each repo's corpus bugs. */
  corpus: ReadonlyMap<string, readonly StoredBug[]> | null;
  /** Told when the step's episodes are planned. */
  onPlanned?: (count: number) => void;
}

/**
 * One self-play step: plan its order-1 episodes (stage 1), run each end to end on the `episodes`
 * lane (stages 2–5, order-2 episodes included), then emit its RL samples (stage 6) and append
 * its metrics line. The metrics line is written last: it is what marks the step done, so a step
 * killed anywhere before it is re-run, skipping the episodes already recorded.
 */
export async function runStep(ctx: SelfplayContext, input: StepInput): Promise<StepOutcome> {
  const { step } = input;
  if (ctx.store.hasMetrics(step)) return { status: 'done-before' };
  const started = Date.now();
  ctx.stageMs = { prepare: 0, score: 0, emit: 0 };
  const plan = planStep({ step, repos: input.repos, settings: ctx.settings, corpus: input.corpus, noHistory: noHistoryNotes(ctx.repos) });
  ctx.stageMs.prepare = Date.now() - started;
  input.onPlanned?.(plan.length);

  const settled = await Promise.allSettled(plan.map((planned) => ctx.lanes.episodes.add(() => runEpisode(ctx, planned))));
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) {
    // Not infrastructure (a bug, a full disk): stop the others before giving up.
    ctx.health.stop(`an episode failed: ${String((failure as PromiseRejectedResult).reason)}`);
    throw (failure as PromiseRejectedResult).reason;
  }
  if (ctx.health.stopped) return { status: 'stopped', reason: ctx.health.stopped };

  const emitting = Date.now();
  const records = ctx.store.episodes().filter((record) => record.step === step);
  const policyVersion = stepVersion(records, ctx.policy.version);
  const evidence = await Promise.all(records.map((record) => collectEvidence(ctx.store, record, ctx.repos.get(record.repo)?.repo.commit ?? 'unknown')));
  const emitted = await emitStage(ctx, evidence, policyVersion);
  ctx.stageMs.emit = Date.now() - emitting;
  const metrics = aggregateStepMetrics({
    step, policyVersion, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, evidence,
    stageMs: ctx.stageMs, samples: emitted.samples, trainer: emitted.trainer,
  });
  await ctx.store.recordMetrics(metrics);
  return { status: 'completed', metrics };
}
