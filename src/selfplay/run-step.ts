import type { EpisodeRecord } from '../corpus/episode-record.js';
import type { StoredBug } from '../corpus/read-stored-bug.js';
import { runPlacedEpisode } from './place-episode.js';
import { noHistoryNotes, stageTimesOf, type SelfplayContext } from './selfplay-context.js';
import { planStep } from './stages/01-prepare.js';

export type SampleOutcome =
  /** Every planned episode is recorded (here or by an earlier run); `samplingMs`: how long they ran here. */
  | { status: 'sampled'; started: number; samplingMs: number }
  /** The engine went away: what finished is stored, the step is not (a re-run continues it). */
  | { status: 'stopped'; reason: string };

/**
 * The policy version a step was generated with: its episodes', else the current one. Not simply
 * the current version: a run killed after the trainer answered a step, and resumed, starts at
 * the trainer's new version, yet that step was sampled by the version before.
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
 * The sampling half of a self-play step: plan its order-1 episodes (stage 1) and run each end to
 * end on the `episodes` lane (stages 2–5, order-2 episodes included), skipping those recorded
 * already. Its other half, finishStep (samples, train call, metrics line), runs after it,
 * possibly while the next step samples.
 */
export async function sampleStep(ctx: SelfplayContext, input: StepInput): Promise<SampleOutcome> {
  const { step } = input;
  const started = Date.now();
  const interval = { start: started, end: null as number | null };
  ctx.sampling.push(interval);
  try {
    const plan = planStep({ step, repos: input.repos, settings: ctx.settings, corpus: input.corpus, noHistory: noHistoryNotes(ctx.repos), anchors: ctx.anchors ?? null });
    stageTimesOf(ctx, step).prepare = Date.now() - started;
    input.onPlanned?.(plan.length);
    const settled = await Promise.allSettled(plan.map((planned) => ctx.lanes.episodes.add(() => runPlacedEpisode(ctx, planned))));
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) {
      // Not infrastructure (a bug, a full disk): stop the others before giving up.
      ctx.health.stop(`an episode failed: ${String((failure as PromiseRejectedResult).reason)}`);
      throw (failure as PromiseRejectedResult).reason;
    }
  } finally {
    interval.end = Date.now();
  }
  if (ctx.health.stopped) return { status: 'stopped', reason: ctx.health.stopped };
  return { status: 'sampled', started, samplingMs: interval.end - started };
}
