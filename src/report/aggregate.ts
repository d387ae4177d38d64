import type { EpisodeRecord } from '../corpus/episode-record.js';
import type { HeldOutMetrics } from '../evaluation/held-out/held-out-metrics.js';
import type { PipelineMetrics, Stability, StageName, StepMetrics } from '../selfplay/step-metrics.js';
import { entropyBits, keysByTotal, mean, total } from './stats.js';
import type { TestRunCounts } from '../harness/test-run-counts.js';
import { TRAINER_METRICS, trainerPoint, type TrainerMetricKey, type TrainerPoint } from './trainer-metrics.js';

/** One step, reduced to what the plots and the text summary show. */
export interface StepAggregate {
  step: number;
  policyVersion: number;
  durationMs: number;
  episodes: number;
  discarded: number;
  /** Bugs the validator judged: valid + rejected. */
  judged: number;
  valid: number;
  validRate: number | null;
  rejections: Record<string, number>;
  discardReasons: Record<string, number>;
  solveRate: { order1: number | null; order2: number | null };
  solverAttempts: number;
  solved: number;
  higherOrder: number;
  /** Leak flags of Solver attempts by kind (empty for a line written before they were counted). */
  leaks: Record<string, number>;
  /** Test runs of the step's episodes by kind (empty for a line written before they were counted). */
  testRuns: TestRunCounts;
  rewards: { injector: number[]; solver: number[] };
  meanReward: { injector: number | null; solver: number | null };
  bugSize: { files: number[]; lines: number[] };
  strategies: Record<string, number>;
  operators: Record<string, number>;
  /** Shannon entropy (bits) of the strategy / operator mix; null when nothing was counted. */
  entropy: { strategies: number | null; operators: number | null };
  turns: { injector: number[]; solver: number[] };
  tokens: { injector: number[]; solver: number[] };
  /** Output length, format-error rate and sampled NLL per trajectory; null for a line written before they existed. */
  stability: Stability | null;
  /** Per wall-clock hour of the step; null for a step of zero duration. */
  perHour: { episodes: number | null; validBugs: number | null };
  stageMs: Record<StageName, number>;
  samples: { written: number; stale: number; masked: number; zeroAdvantageGroups: number };
  trainer: TrainerPoint | null;
  /** Sampling / training overlap and staleness; null for a line written before the asynchronous loop. */
  pipeline: PipelineMetrics | null;
  /** `--eval-set`: the held-out evaluation after this step; null on a step not evaluated. */
  heldOut: HeldOutMetrics | null;
}

/** A whole run, ready to plot. */
export interface RunAggregate {
  name: string;
  steps: StepAggregate[];
  /** Legend orders: most frequent first over the run. */
  keys: { checks: string[]; discardReasons: string[]; strategies: string[]; operators: string[]; leaks: string[] };
  /** Trainer metrics seen in at least one step, in display order. */
  trainerMetrics: TrainerMetricKey[];
  /** Per-bug solve rates of completed, validated episodes (from episodes.jsonl). */
  bugSolveRates: { order1: number[]; order2: number[] };
  /** `--eval-every`: the starting policy's held-out evaluation (step 0, before any training); null without one. */
  heldOutAtStart: HeldOutMetrics | null;
  totals: {
    episodes: number;
    discarded: number;
    valid: number;
    judged: number;
    validRate: number | null;
    solverAttempts: number;
    solved: number;
    solveRate: number | null;
    durationMs: number;
    meanReward: { injector: number | null; solver: number | null };
  };
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const hours = (ms: number): number => ms / 3_600_000;

/** Reduce one metrics.jsonl line. Pure. */
export function aggregateStep(line: StepMetrics): StepAggregate {
  const invalid = total(line.invalidByCheck);
  const judged = line.valid + invalid;
  return {
    step: line.step,
    policyVersion: line.policyVersion,
    durationMs: line.durationMs,
    episodes: line.episodes,
    discarded: line.discarded,
    judged,
    valid: line.valid,
    validRate: line.validRate ?? ratio(line.valid, judged),
    rejections: line.invalidByCheck,
    discardReasons: line.discardReasons,
    solveRate: line.solveRate,
    solverAttempts: line.solverAttempts,
    solved: line.solved,
    higherOrder: line.higherOrder,
    leaks: line.leaks ?? {},
    testRuns: line.testRuns ?? {},
    rewards: line.rewards,
    meanReward: { injector: mean(line.rewards.injector), solver: mean(line.rewards.solver) },
    bugSize: line.bugSize,
    strategies: line.strategies,
    operators: line.operators,
    entropy: { strategies: entropyBits(line.strategies), operators: entropyBits(line.operators) },
    turns: line.turns,
    tokens: line.tokens,
    stability: line.stability ?? null,
    perHour: {
      episodes: line.durationMs > 0 ? line.episodes / hours(line.durationMs) : null,
      validBugs: line.durationMs > 0 ? line.valid / hours(line.durationMs) : null,
    },
    stageMs: line.stageMs,
    samples: line.samples,
    trainer: line.trainer === null ? null : trainerPoint(line.trainer),
    pipeline: line.pipeline ?? null,
    heldOut: line.heldOut ?? null,
  };
}

/** Per-bug solve rates of the episodes that scored attempts on a valid bug. */
function bugSolveRates(episodes: readonly EpisodeRecord[]): RunAggregate['bugSolveRates'] {
  const rates: RunAggregate['bugSolveRates'] = { order1: [], order2: [] };
  for (const episode of episodes) {
    if (episode.status !== 'completed' || episode.valid === false || episode.solverAttempts === 0) continue;
    rates[episode.order === 1 ? 'order1' : 'order2'].push(episode.solved / episode.solverAttempts);
  }
  return rates;
}

/** Reduce a run (its metrics lines and episodes) to the plotted series and run totals. Pure. */
export function aggregateRun(run: { name: string; steps: readonly StepMetrics[]; episodes: readonly EpisodeRecord[]; heldOutAtStart?: HeldOutMetrics | null }): RunAggregate {
  const steps = [...run.steps].sort((a, b) => a.step - b.step).map(aggregateStep);
  const sum = (pick: (step: StepAggregate) => number): number => steps.reduce((acc, step) => acc + pick(step), 0);
  const [valid, judged, attempts, solved] = [sum((s) => s.valid), sum((s) => s.judged), sum((s) => s.solverAttempts), sum((s) => s.solved)];
  const seen = new Set(steps.flatMap((step) => Object.keys(step.trainer ?? {})));
  return {
    name: run.name,
    steps,
    keys: {
      checks: keysByTotal(steps.map((step) => step.rejections)),
      discardReasons: keysByTotal(steps.map((step) => step.discardReasons)),
      strategies: keysByTotal(steps.map((step) => step.strategies)),
      operators: keysByTotal(steps.map((step) => step.operators)),
      leaks: keysByTotal(steps.map((step) => step.leaks)),
    },
    trainerMetrics: TRAINER_METRICS.map((metric) => metric.key).filter((key) => seen.has(key)),
    bugSolveRates: bugSolveRates(run.episodes),
    heldOutAtStart: run.heldOutAtStart ?? null,
    totals: {
      episodes: sum((s) => s.episodes),
      discarded: sum((s) => s.discarded),
      valid,
      judged,
      validRate: ratio(valid, judged),
      solverAttempts: attempts,
      solved,
      solveRate: ratio(solved, attempts),
      durationMs: sum((s) => s.durationMs),
      meanReward: { injector: mean(steps.flatMap((s) => s.rewards.injector)), solver: mean(steps.flatMap((s) => s.rewards.solver)) },
    },
  };
}
