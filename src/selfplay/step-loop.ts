import type { StoredBug } from '../corpus/read-stored-bug.js';
import { StepPipeline } from '../training/step-pipeline.js';
import { errorMessage } from '../util/engine-error.js';
import { finishStep } from './finish-step.js';
import { sampleStep } from './run-step.js';
import type { SelfplayContext } from './selfplay-context.js';
import type { SelfplayProgress } from './selfplay-progress.js';
import type { StepMetrics } from './step-metrics.js';

export interface LoopInput {
  steps: number;
  repos: readonly string[];
  corpus: ReadonlyMap<string, readonly StoredBug[]> | null;
  progress: SelfplayProgress;
  /** Told when a step starts sampling (the heartbeat's step). */
  onStepStarted?: (step: number) => void;
  /** Told each finished step's metrics (`--log-to`, the heartbeat). */
  onStepFinished?: (metrics: StepMetrics) => void;
}

/**
 * Steps 1..`steps` (those with a metrics line skipped): each samples, then finishes (train call,
 * metrics) in the background while the next ones sample, at most `maxStaleness` train calls
 * behind (see StepPipeline). A failed finish stops the sampling and is thrown once the finishes
 * before it are done.
 *
 * @returns why the engine stopped the run, or null when every step is done.
 */
export async function runSteps(ctx: SelfplayContext, input: LoopInput): Promise<string | null> {
  const pipeline = new StepPipeline(ctx.settings.maxStaleness, (error) => ctx.health.stop(`step training failed: ${errorMessage(error)}`));
  let stopped: string | null = null;
  for (let step = 1; step <= input.steps && stopped === null; step++) {
    if (ctx.store.hasMetrics(step)) continue;
    await pipeline.gate(step);
    input.onStepStarted?.(step);
    const sampled = await sampleStep(ctx, { step, repos: input.repos, corpus: input.corpus, onPlanned: (count) => input.progress.startStep(step, count) });
    if (sampled.status === 'stopped') {
      stopped = sampled.reason;
      break;
    }
    pipeline.enqueue(step, async () => {
      const metrics = await finishStep(ctx, { step, started: sampled.started, samplingMs: sampled.samplingMs });
      input.progress.trained(metrics);
      input.onStepFinished?.(metrics);
    });
  }
  await pipeline.drain();
  return stopped;
}
