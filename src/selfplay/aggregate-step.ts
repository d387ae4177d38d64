import type { Trajectory } from '../agent/trajectory.js';
import type { TrajectoryStep } from '../agent/trajectory-record.js';
import { countEpisodes } from './episode-counts.js';
import { countAnchors } from './anchoring/anchor-counts.js';
import type { EpisodeEvidence } from './step-evidence.js';
import { stepMetricsSchema, type PipelineMetrics, type Stability, type StepMetrics } from './step-metrics.js';
import { sumTestRuns } from '../harness/test-run-counts.js';
import type { TrainerStep } from '../training/trainer-client.js';

export interface StepMetricsInput {
  step: number;
  policyVersion: number;
  startedAt: string;
  durationMs: number;
  /** Every episode of the step (latest record of each). */
  evidence: readonly EpisodeEvidence[];
  /** Stage times measured by the step loop; inject, validate and solve are summed from the records. */
  stageMs: { prepare: number; score: number; emit: number };
  samples: StepMetrics['samples'];
  trainer: TrainerStep | null;
  pipeline?: PipelineMetrics;
  /** The run anchors (`--anchor-set`): the line carries the step's anchor counts. */
  anchored?: boolean;
}

interface Effort {
  turns: number;
  /** Prompt + completion. */
  tokens: number;
  completionTokens: number;
  formatErrors: number;
}

/** What a trajectory spent: its exit record's sums, or its steps' when it has none (a crash, a kill). */
function effort(trajectory: Trajectory): Effort {
  const exit = trajectory.exit;
  if (exit) return { turns: exit.turns, tokens: exit.usage.promptTokens + exit.usage.completionTokens, completionTokens: exit.usage.completionTokens, formatErrors: exit.formatErrors };
  const steps = trajectory.steps;
  const sum = (pick: (step: TrajectoryStep) => number): number => steps.reduce((total, step) => total + pick(step), 0);
  return {
    turns: steps.length,
    tokens: sum((step) => step.usage.promptTokens + step.usage.completionTokens),
    completionTokens: sum((step) => step.usage.completionTokens),
    formatErrors: steps.filter((step) => step.formatError !== undefined).length,
  };
}

/**
 * Mean −log p per sampled token over the turns that kept their token sample (tokens mode); null
 * when none did. A non-finite logprob is left out: one −∞ would make the whole step's mean ∞.
 */
function sampledNll(trajectory: Trajectory): number | null {
  const logprobs = trajectory.steps.flatMap((step) => step.sample?.completionLogprobs ?? []).filter(Number.isFinite);
  return logprobs.length === 0 ? null : -logprobs.reduce((sum, logprob) => sum + logprob, 0) / logprobs.length + 0;
}

/** The metrics.jsonl line of a step, from what the store holds about its episodes. */
export function aggregateStepMetrics(input: StepMetricsInput): StepMetrics {
  const records = input.evidence.map((item) => item.record);
  const { strategies, ...counts } = countEpisodes(records);
  const bugs = input.evidence.flatMap((item) => (item.bug ? [item.bug] : []));
  const operators: Record<string, number> = {};
  for (const kind of bugs.flatMap((bug) => bug.kinds)) operators[kind] = (operators[kind] ?? 0) + 1;
  const turns = { injector: [] as number[], solver: [] as number[] };
  const tokens = { injector: [] as number[], solver: [] as number[] };
  const stability: Stability = {
    outputTokens: { injector: [], solver: [] },
    formatErrorRate: { injector: [], solver: [] },
    sampledNll: { injector: [], solver: [] },
  };
  const add = (role: 'injector' | 'solver', trajectory: Trajectory | null): void => {
    if (!trajectory) return;
    const spent = effort(trajectory);
    turns[role].push(spent.turns);
    tokens[role].push(spent.tokens);
    // Per-turn signals need a turn; a trajectory that never queried the policy says nothing about its output.
    if (spent.turns === 0) return;
    stability.outputTokens[role].push(spent.completionTokens / spent.turns);
    stability.formatErrorRate[role].push(spent.formatErrors / spent.turns);
    const nll = sampledNll(trajectory);
    if (nll !== null) stability.sampledNll[role].push(nll);
  };
  for (const item of input.evidence) {
    add('injector', item.injector);
    for (const attempt of item.attempts) add('solver', attempt.trajectory);
  }
  const leaks: Record<string, number> = {};
  for (const flag of records.flatMap((record) => record.leaks ?? [])) leaks[flag.kind] = (leaks[flag.kind] ?? 0) + 1;
  const sum = (key: 'inject' | 'validate' | 'solve'): number => records.reduce((total, record) => total + record.durationsMs[key], 0);
  return stepMetricsSchema.parse({
    step: input.step,
    policyVersion: input.policyVersion,
    startedAt: input.startedAt,
    durationMs: input.durationMs,
    ...counts,
    leaks,
    testRuns: sumTestRuns(records.map((record) => record.testRuns)),
    bugSize: { files: bugs.map((bug) => bug.files), lines: bugs.map((bug) => bug.lines) },
    strategies,
    operators,
    turns,
    tokens,
    stability,
    stageMs: { prepare: input.stageMs.prepare, inject: sum('inject'), validate: sum('validate'), solve: sum('solve'), score: input.stageMs.score, emit: input.stageMs.emit },
    samples: input.samples,
    trainer: input.trainer ? { version: input.trainer.version, metrics: input.trainer.metrics } : null,
    ...(input.pipeline ? { pipeline: input.pipeline } : {}),
    ...(input.anchored ? { anchor: countAnchors(records) } : {}),
  });
}
