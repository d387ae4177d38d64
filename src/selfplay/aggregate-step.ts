import type { Trajectory } from '../agent/trajectory.js';
import { countEpisodes } from './episode-counts.js';
import type { EpisodeEvidence } from './step-evidence.js';
import { stepMetricsSchema, type StepMetrics } from './step-metrics.js';
import type { TrainerStep } from './trainer-client.js';

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
}

/** Turns and tokens of a trajectory: its exit record's, or summed over its steps when it has none. */
function effort(trajectory: Trajectory): { turns: number; tokens: number } {
  if (trajectory.exit) return { turns: trajectory.exit.turns, tokens: trajectory.exit.usage.promptTokens + trajectory.exit.usage.completionTokens };
  const tokens = trajectory.steps.reduce((sum, step) => sum + step.usage.promptTokens + step.usage.completionTokens, 0);
  return { turns: trajectory.steps.length, tokens };
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
  const add = (role: 'injector' | 'solver', trajectory: Trajectory | null): void => {
    if (!trajectory) return;
    const spent = effort(trajectory);
    turns[role].push(spent.turns);
    tokens[role].push(spent.tokens);
  };
  for (const item of input.evidence) {
    add('injector', item.injector);
    for (const attempt of item.attempts) add('solver', attempt.trajectory);
  }
  const sum = (key: 'inject' | 'validate' | 'solve'): number => records.reduce((total, record) => total + record.durationsMs[key], 0);
  return stepMetricsSchema.parse({
    step: input.step,
    policyVersion: input.policyVersion,
    startedAt: input.startedAt,
    durationMs: input.durationMs,
    ...counts,
    bugSize: { files: bugs.map((bug) => bug.files), lines: bugs.map((bug) => bug.lines) },
    strategies,
    operators,
    turns,
    tokens,
    stageMs: { prepare: input.stageMs.prepare, inject: sum('inject'), validate: sum('validate'), solve: sum('solve'), score: input.stageMs.score, emit: input.stageMs.emit },
    samples: input.samples,
    trainer: input.trainer ? { version: input.trainer.version, metrics: input.trainer.metrics } : null,
  });
}
