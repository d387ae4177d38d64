import { agentLimitsSchema } from '../../agent/agent-limits.js';
import { lossNormalization } from '../../rl/advantages.js';
import { assignAdvantages } from '../../rl/groups.js';
import { dropStale } from '../../rl/staleness.js';
import { publishWeights } from '../../training/publish-weights.js';
import type { SelfplaySettings } from '../selfplay-settings.js';
import type { SelfplayContext } from '../selfplay-context.js';
import type { EpisodeEvidence } from '../step-evidence.js';
import type { StepMetrics } from '../step-metrics.js';
import { buildStepSamples } from '../step-samples.js';
import { postTrainStep, type TrainerStep } from '../trainer-client.js';

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
 * sampler is given the new weights and the policy samples as the version it confirmed.
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
    maskedBy: countBy(samples.flatMap((sample) => (sample.masked ? [sample.maskCode ?? 'unknown'] : []))),
    zeroAdvantageGroups: groups.filter((group) => group.zeroAdvantage).length,
  };
  if (ctx.settings.trainerUrl === null || samples.length === 0) return { samples: stats, trainer: null };
  const trainer = await postTrainStep(ctx.settings.trainerUrl, samples, version, lossNormalization(ctx.settings.advantage, generationBudget(ctx.settings)));
  // The policy samples as the version the SAMPLER confirmed (see publishWeights), never the trainer's when they differ.
  const { trainerUrl, samplerUrl, samplerSync } = ctx.settings;
  const served = await publishWeights({ trainerUrl, samplerUrl, samplerSync }, trainer.version);
  if (served !== null) ctx.policy.serve(served);
  return { samples: stats, trainer };
}

/** Dr.GRPO's generation budget: the most tokens one trajectory may hold (the larger role context limit). */
function generationBudget(settings: SelfplaySettings): number {
  const { injectorLimits, solverLimits } = settings;
  return Math.max(agentLimitsSchema.parse(injectorLimits).maxContextTokens, agentLimitsSchema.parse(solverLimits).maxContextTokens);
}

function countBy(codes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const code of codes) counts[code] = (counts[code] ?? 0) + 1;
  return counts;
}
