import type { StepMetrics } from '../../selfplay/step-metrics.js';
import { mean, total } from '../stats.js';
import { TRAINER_METRICS, TRAINER_SCOPES, trainerPoint } from '../trainer-metrics.js';

/** Scalar name → value; names group with `/` (TensorBoard and W&B both fold on it). */
export type StepScalars = Record<string, number>;

function put(into: StepScalars, name: string, value: number | null | undefined): void {
  if (value !== null && value !== undefined && Number.isFinite(value)) into[name] = value;
}

function perRole(into: StepScalars, prefix: string, values: { injector: readonly number[]; solver: readonly number[] }): void {
  put(into, `${prefix}/injector`, mean(values.injector));
  put(into, `${prefix}/solver`, mean(values.solver));
}

/**
 * One metrics.jsonl line as the scalars `--log-to` sends: the rates and counts the run report
 * plots per step, distributions as their means, and the trainer's plotted metrics per scope.
 * Absent values (a rate with no episodes, no trainer) are left out, never logged as 0.
 */
export function stepScalars(metrics: StepMetrics): StepScalars {
  const out: StepScalars = {};
  put(out, 'policy/version', metrics.policyVersion);
  put(out, 'episodes/total', metrics.episodes);
  put(out, 'episodes/discarded', metrics.discarded);
  put(out, 'episodes/higher_order', metrics.higherOrder);
  put(out, 'bugs/valid', metrics.valid);
  put(out, 'bugs/valid_rate', metrics.validRate);
  put(out, 'bugs/invalid', total(metrics.invalidByCheck));
  put(out, 'bugs/files_mean', mean(metrics.bugSize.files));
  put(out, 'bugs/lines_mean', mean(metrics.bugSize.lines));
  put(out, 'solve/attempts', metrics.solverAttempts);
  put(out, 'solve/solved', metrics.solved);
  put(out, 'solve/rate_order1', metrics.solveRate.order1);
  put(out, 'solve/rate_order2', metrics.solveRate.order2);
  put(out, 'anchor/episodes', metrics.anchor?.episodes);
  put(out, 'anchor/solve_rate', metrics.anchor?.solveRate);
  put(out, 'leaks/total', metrics.leaks ? total(metrics.leaks) : undefined);
  perRole(out, 'reward_mean', metrics.rewards);
  perRole(out, 'turns_mean', metrics.turns);
  perRole(out, 'tokens_mean', metrics.tokens);
  if (metrics.stability) {
    perRole(out, 'stability/output_tokens', metrics.stability.outputTokens);
    perRole(out, 'stability/format_error_rate', metrics.stability.formatErrorRate);
    perRole(out, 'stability/sampled_nll', metrics.stability.sampledNll);
  }
  put(out, 'samples/written', metrics.samples.written);
  put(out, 'samples/stale', metrics.samples.stale);
  put(out, 'samples/masked', metrics.samples.masked);
  put(out, 'samples/zero_advantage_groups', metrics.samples.zeroAdvantageGroups);
  put(out, 'time/step_s', metrics.durationMs / 1000);
  for (const [stage, ms] of Object.entries(metrics.stageMs)) put(out, `time/${stage}_s`, ms / 1000);
  if (metrics.pipeline) {
    put(out, 'pipeline/training_s', metrics.pipeline.trainingMs / 1000);
    put(out, 'pipeline/overlap_s', metrics.pipeline.overlapMs / 1000);
    put(out, 'pipeline/lost', metrics.pipeline.lost);
  }
  if (metrics.heldOut) {
    put(out, 'held_out/solve_rate', metrics.heldOut.solveRate);
    put(out, 'held_out/attempts', metrics.heldOut.attempts);
    put(out, 'held_out/overlaps', metrics.heldOut.overlaps);
  }
  if (metrics.trainer) {
    const point = trainerPoint(metrics.trainer);
    for (const { key } of TRAINER_METRICS) {
      for (const scope of TRAINER_SCOPES) put(out, scope === 'all' ? `trainer/${key}` : `trainer/${scope}/${key}`, point[key]?.[scope]);
    }
  }
  return out;
}
