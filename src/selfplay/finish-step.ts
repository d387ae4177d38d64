import { overlapMs } from '../training/overlap.js';
import { aggregateStepMetrics } from './aggregate-step.js';
import { stepVersion } from './run-step.js';
import { stageTimesOf, type SelfplayContext } from './selfplay-context.js';
import { emitStage } from './stages/06-emit.js';
import { collectEvidence } from './step-evidence.js';
import type { StepMetrics } from './step-metrics.js';

export interface FinishInput {
  step: number;
  /** When the step started sampling here (Date.now()). */
  started: number;
  samplingMs: number;
}

/**
 * The second half of a self-play step, once all its episodes are recorded: its RL samples and
 * train call (stage 6), then its metrics line. The metrics line is written last: it is what marks
 * the step done, so a step killed anywhere before it is finished again by the next run (its
 * episodes found recorded, its train call found applied).
 */
export async function finishStep(ctx: SelfplayContext, input: FinishInput): Promise<StepMetrics> {
  const { step } = input;
  const emitting = Date.now();
  const records = ctx.store.episodes().filter((record) => record.step === step);
  const policyVersion = stepVersion(records, ctx.policy.version);
  const evidence = await Promise.all(records.map((record) => collectEvidence(ctx.store, record, ctx.repos.get(record.repo)?.repo.commit ?? 'unknown')));
  const emitted = await emitStage(ctx, evidence, step, policyVersion);
  const times = stageTimesOf(ctx, step);
  times.emit = Date.now() - emitting;
  const trainingMs = emitted.training ? emitted.training.end! - emitted.training.start : 0;
  const metrics = aggregateStepMetrics({
    step, policyVersion, startedAt: new Date(input.started).toISOString(), durationMs: Date.now() - input.started, evidence,
    stageMs: times, samples: emitted.samples, trainer: emitted.trainer, anchored: Boolean(ctx.anchors),
    pipeline: {
      trainVersion: emitted.trainer ? emitted.version : null,
      samplingMs: input.samplingMs,
      trainingMs,
      overlapMs: emitted.training ? overlapMs(emitted.training, ctx.sampling) : 0,
      staleness: emitted.staleness,
      lost: emitted.lost,
    },
  });
  // After the train call (the policy is the trained version) and before the metrics line that marks the step done:
  // a kill in between evaluates again on the next run, grading only the attempts missing.
  const heldOut = await ctx.heldOut?.evaluate(ctx, step);
  const line = heldOut ? { ...metrics, heldOut } : metrics;
  await ctx.store.recordMetrics(line);
  ctx.stageMs.delete(step);
  return line;
}
