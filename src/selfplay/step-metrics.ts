import { z } from 'zod';
import { heldOutMetricsSchema } from '../evaluation/held-out/held-out-metrics.js';
import { testRunCountsSchema } from '../harness/test-run-counts.js';
import { anchorMetricsSchema } from './anchoring/anchor-counts.js';

const count = z.number().int().nonnegative();
const counts = z.record(z.string(), count);
const numbers = z.array(z.number());
const byRole = z.object({ injector: numbers, solver: numbers });
const rate = z.number().min(0).max(1).nullable();

/**
 * Gibberish-output signals (method §10), one entry per trajectory that made at least one turn. Only
 * `sampledNll` needs token logprobs (tokens mode): it stays empty for openai and procedural runs.
 */
export const stabilitySchema = z.object({
  outputTokens: byRole.describe('mean completion tokens per turn (exit usage.completionTokens / turns)'),
  formatErrorRate: byRole.describe('share of turns that were format errors (exit formatErrors / turns)'),
  sampledNll: byRole.describe('mean negative log-prob per sampled token, nats (an entropy proxy); only trajectories with token logprobs'),
});
export type Stability = z.infer<typeof stabilitySchema>;

/**
 * The asynchronous loop (`--max-staleness`): how a step's training overlapped sampling and how
 * old its samples were when trained.
 */
export const pipelineSchema = z.object({
  trainVersion: count.nullable().describe('the trainer version the samples were trained at (expected_version); null: no train call'),
  samplingMs: z.number().nonnegative().describe("wall time of the step's episodes in the process that finished it"),
  trainingMs: z.number().nonnegative().describe('wall time of the train call'),
  overlapMs: z.number().nonnegative().describe('part of the train call during which episodes (of later steps) were sampling'),
  staleness: counts.describe('samples by version lag (train version − sample version), kept and dropped'),
  lost: count.describe('samples dropped because a resume lost the weights that sampled them'),
});
export type PipelineMetrics = z.infer<typeof pipelineSchema>;

/** The six episode stages, in order (src/selfplay/stages/). */
export const STAGES = ['prepare', 'inject', 'validate', 'solve', 'score', 'emit'] as const;
export type StageName = (typeof STAGES)[number];

/**
 * One line of `<run>/metrics.jsonl`: what one self-play step did. Other tools parse it (the run
 * report plots exactly these fields), so names are a contract. Distributions are raw arrays, one
 * entry per episode or trajectory, so readers can draw them whole.
 *
 * Counting rules: `episodes` and `discarded` include order-2 episodes; `valid`, `invalidByCheck`
 * and `validRate` judge the Injector, so they count order-1 episodes only (`no-submission` is the
 * pseudo-check of an Injector that submitted nothing usable, `gave-up` of one that said it found
 * no bug); solve counts and rates are over
 * scored attempts (discarded attempts excluded).
 */
export const stepMetricsSchema = z.object({
  step: count,
  policyVersion: count.describe('policy version that generated the step'),
  startedAt: z.string().describe('ISO time the step started (in the process that finished it)'),
  durationMs: z.number().nonnegative(),
  episodes: count.describe('episodes recorded in the step, order 2 and discarded ones included'),
  discarded: count.describe('episodes lost to the infrastructure (no reward)'),
  discardReasons: counts.describe('discarded episodes by reason category (`<stage>:<code>`)'),
  valid: count.describe('order-1 bugs that passed every consistency check'),
  invalidByCheck: counts.describe('rejected order-1 bugs by the first check that failed'),
  validRate: rate.describe('valid / completed order-1 episodes; null with none'),
  solverAttempts: count.describe('scored Solver attempts, both orders'),
  solved: count.describe('attempts that earned +1'),
  solveRate: z.object({ order1: rate, order2: rate }).describe('over synthetic bugs; anchor bugs have their own (`anchor`)'),
  anchor: anchorMetricsSchema.optional().describe('anchoring (--anchor-set): the step\'s anchor episodes; absent from runs without anchoring'),
  higherOrder: count.describe('order-2 episodes run in the step'),
  leaks: counts.optional().describe('leak flags of Solver attempts by kind (scanLeaks: history, artifact, outside-repo, network, package-download); absent from lines written before it existed'),
  testRuns: testRunCountsSchema.optional().describe("test runs the step's episodes started, by kind, each {full, restricted} (sum of the episodes' testRuns); absent from lines written before it existed"),
  rewards: byRole.describe('injector: one per rewarded order-1 episode; solver: one per scored attempt'),
  bugSize: z.object({ files: numbers, lines: numbers }).describe('per valid order-1 bug: changed code files, changed lines of bug_inject.diff'),
  strategies: counts.describe('completed order-1 episodes by injector strategy'),
  operators: counts.describe('valid order-1 bugs by change kind (the procedural operator when known, else the diff shape)'),
  turns: byRole.describe('policy turns per trajectory'),
  tokens: byRole.describe('prompt + completion tokens per trajectory'),
  stability: stabilitySchema.optional().describe('instability at scale (method §10), one value per trajectory; absent from lines written before it existed'),
  stageMs: z.object({ prepare: z.number(), inject: z.number(), validate: z.number(), solve: z.number(), score: z.number(), emit: z.number() }),
  samples: z.object({
    written: count,
    stale: count,
    masked: count,
    maskedBy: z.record(z.string(), count).optional().describe("masked samples by mask code (TrainingSample.maskCode); absent from lines written before it existed"),
    zeroAdvantageGroups: count,
  }),
  trainer: z.record(z.string(), z.unknown()).nullable().describe('the trainer step response ({version, metrics}); null without a trainer'),
  pipeline: pipelineSchema.optional().describe('absent from lines written before the asynchronous loop'),
  heldOut: heldOutMetricsSchema.optional().describe('`--eval-set`: the held-out evaluation after this step (absent on a step not evaluated)'),
});
export type StepMetrics = z.infer<typeof stepMetricsSchema>;
