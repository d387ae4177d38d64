import { assignAdvantages } from '../../rl/groups.js';
import { dropStale } from '../../rl/staleness.js';
import type { SelfplayContext } from '../selfplay-context.js';
import type { EpisodeEvidence } from '../step-evidence.js';
import type { StepMetrics } from '../step-metrics.js';
import { buildStepSamples } from '../step-samples.js';
import { postTrainStep, type TrainerStep } from '../../training/trainer-client.js';

export interface EmitResult {
  samples: StepMetrics['samples'];
  trainer: TrainerStep | null;
}

const NO_SAMPLES: StepMetrics['samples'] = { written: 0, stale: 0, masked: 0, zeroAdvantageGroups: 0 };

/**
 * Stage 6 (emit), once per step, at the step's policy `version` (see stepVersion): the step's
 * samples (see buildStepSamples), those more than `maxStaleness` versions behind it dropped and counted, group-relative
 * advantages over the rest (masked members out of the baseline), appended idempotently to
 * `samples/v<version>.jsonl`; then, with a trainer, one `/train/step` on them, after which the
 * policy samples as the trainer's new version.
 */
export async function emitStage(ctx: SelfplayContext, evidence: readonly EpisodeEvidence[], version: number): Promise<EmitResult> {
  if (!ctx.settings.emitSamples) return { samples: NO_SAMPLES, trainer: null };
  const fresh = dropStale(buildStepSamples(evidence, ctx.settings), version, ctx.settings.maxStaleness);
  const { samples, groups } = assignAdvantages(fresh.kept, ctx.settings.advantage);
  await ctx.sampleWriter.append(version, samples);
  const stats = {
    written: samples.length,
    stale: fresh.dropped.injector + fresh.dropped.solver,
    masked: samples.filter((sample) => sample.masked).length,
    zeroAdvantageGroups: groups.filter((group) => group.zeroAdvantage).length,
  };
  if (ctx.settings.trainerUrl === null || samples.length === 0) return { samples: stats, trainer: null };
  const trainer = await postTrainStep(ctx.settings.trainerUrl, samples, version);
  ctx.policy.advanceTo(trainer.version);
  return { samples: stats, trainer };
}
