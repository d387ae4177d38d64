import { agentLimitsSchema } from '../../agent/agent-limits.js';
import { lossNormalization } from '../../rl/advantages.js';
import { assignAdvantages } from '../../rl/groups.js';
import { dropLost, dropStale } from '../../rl/staleness.js';
import type { Interval } from '../../training/overlap.js';
import { publishWeights } from '../../training/publish-weights.js';
import { saveTrainerWeights } from '../../training/trainer-checkpoint.js';
import { postTrainStep, trainerVersion, type TrainerStep } from '../../training/trainer-client.js';
import { checkTrainerVersion } from '../../training/version-guard.js';
import type { SelfplayContext } from '../selfplay-context.js';
import type { SelfplaySettings } from '../selfplay-settings.js';
import type { EpisodeEvidence } from '../step-evidence.js';
import type { StepMetrics } from '../step-metrics.js';
import { buildStepSamples } from '../step-samples.js';

export interface EmitResult {
  samples: StepMetrics['samples'];
  trainer: TrainerStep | null;
  /** The version the samples were trained at (their `samples/v<N>.jsonl`); without a trainer, the step's. */
  version: number;
  /** Samples by version lag (kept and dropped). */
  staleness: Record<number, number>;
  /** Samples dropped as sampled by weights lost in a resume. */
  lost: number;
  /** The train call; null when none was made. */
  training: Interval | null;
}

const NO_SAMPLES: StepMetrics['samples'] = { written: 0, stale: 0, masked: 0, zeroAdvantageGroups: 0 };

/**
 * Stage 6 (emit), once per step after its episodes: the step's samples (see buildStepSamples),
 * those more than `maxStaleness` versions behind the version they are trained at dropped and
 * counted, group-relative advantages over the rest (masked members out of the baseline), appended
 * idempotently to `samples/v<version>.jsonl`; then, with a trainer, one `/train/step` on them,
 * after which the sampler is given the new weights and the policy samples as the version it
 * confirmed. The train version is the
 * trainer's after the previous step, or the one `training.jsonl` recorded for this step before a
 * kill (so a resumed step is answered "already applied" rather than trained twice).
 */
export async function emitStage(ctx: SelfplayContext, evidence: readonly EpisodeEvidence[], step: number, sampledVersion: number): Promise<EmitResult> {
  const { trainer } = ctx;
  const version = trainer === null ? sampledVersion : (trainer.journal.trainOf(step)?.expectedVersion ?? trainer.version);
  const none = { trainer: null, version, staleness: {}, lost: 0, training: null };
  if (!ctx.settings.emitSamples) return { samples: NO_SAMPLES, ...none };
  const { kept, lost } = dropLost(buildStepSamples(evidence, ctx.settings), trainer?.journal.lastResume() ?? null);
  const fresh = dropStale(kept, version, ctx.settings.maxStaleness);
  const { samples, groups } = assignAdvantages(fresh.kept, ctx.settings.advantage);
  const stats = {
    written: samples.length,
    stale: fresh.dropped.injector + fresh.dropped.solver,
    masked: samples.filter((sample) => sample.masked).length,
    maskedBy: countBy(samples.flatMap((sample) => (sample.masked ? [sample.maskCode ?? 'unknown'] : []))),
    zeroAdvantageGroups: groups.filter((group) => group.zeroAdvantage).length,
  };
  const result: EmitResult = { ...none, samples: stats, staleness: fresh.lags, lost };
  if (trainer === null || samples.length === 0) {
    await ctx.sampleWriter.append(version, samples);
    return result;
  }
  if (trainer.journal.trainOf(step) === null) await trainer.journal.append({ type: 'train', step, expectedVersion: version, samples: samples.length, at: new Date().toISOString() });
  await ctx.sampleWriter.append(version, samples);
  // A trainer restarted from an older checkpoint would answer 409 forever, or worse, train: refuse it first.
  checkTrainerVersion({ url: trainer.url, trainerVersion: await trainerVersion(trainer.url), runVersion: version, checkpoint: trainer.journal.lastCheckpoint(), resume: false });
  const training: Interval = { start: Date.now(), end: null };
  const answer = await postTrainStep(trainer.url, samples, version, lossNormalization(ctx.settings.advantage, generationBudget(ctx.settings)));
  // The policy samples as the version the SAMPLER confirmed (see publishWeights), never the trainer's when they differ.
  // `--save-every N`: every N-th step's weights are saved once, resumable (the newest --keep-checkpoints kept),
  // and the sampler (if separate) loads that save; other steps give it a weights-only export.
  const { saveEvery: every, keepCheckpoints: keep, samplerUrl, samplerSync, maxStaleness } = ctx.settings;
  const checkpoint = every > 0 && step % every === 0 ? await saveTrainerWeights(trainer.url, { weightsOnly: false, keep }) : undefined;
  const route = { trainerUrl: trainer.url, samplerUrl, samplerSync, runTag: trainer.runTag, tolerance: ctx.settings.samplerCheckTolerance, maxStaleness };
  const served = await publishWeights(route, answer.version, checkpoint);
  if (served !== null) ctx.policy.serve(served);
  training.end = Date.now();
  trainer.version = answer.version;
  if (checkpoint) await trainer.journal.append({ type: 'checkpoint', step, path: checkpoint.path, version: checkpoint.version, at: new Date().toISOString() });
  return { ...result, trainer: answer, training };
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
