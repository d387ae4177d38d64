import { z } from 'zod';
import { agentLimitOverridesSchema } from '../agent/agent-limits.js';
import { LEAK_POLICIES } from '../agent/leak-flag.js';
import { DEFAULT_INJECTOR_ALPHA } from '../reward/score-injector.js';
import { advantageEstimatorSchema, DEFAULT_ADVANTAGE_ESTIMATOR } from '../rl/advantages.js';
import { LIMIT_HIT_MODES } from '../rl/build-sample.js';
import { DEFAULT_MAX_STALENESS } from '../rl/staleness.js';
import { STRATEGY_CHOICES } from '../roles/injector-strategy.js';
import { samplerSyncModeSchema } from '../training/sampler-sync-mode.js';
import { DEFAULT_PROBE_TOLERANCE } from '../training/verify-sampler.js';
import { anchorSettingsSchema } from './anchoring/anchor-settings.js';

/** Which role's samples are written and trained (the ablations of method §9). */
export const TRAIN_ROLES = ['both', 'injector', 'solver'] as const;
export type TrainRoles = (typeof TRAIN_ROLES)[number];

const positive = z.number().int().positive();

/** Lanes of bounded concurrency; the defaults suit a 2-core machine. */
export const laneSizesSchema = z.object({
  episodes: positive.default(2).describe('order-1 episodes in flight (each holds its Injector sandbox, then waits on the other lanes)'),
  solver: positive.default(2).describe('Solver attempts running at once (each holds one sandbox)'),
  sandbox: positive.default(2).describe('test-state sandboxes of validation and grading running at once'),
  policy: positive.default(8).describe('policy calls in flight (an HTTP endpoint batches them)'),
});
export type LaneSizes = z.infer<typeof laneSizesSchema>;

/**
 * Everything that decides what a self-play run does, besides the repos and the policy. The part
 * that must match on resume goes to run.json (see `resumeKey`).
 */
export const selfplaySettingsSchema = z.object({
  episodesPerStep: positive.describe('order-1 episodes per repo per step'),
  attempts: z.number().int().nonnegative().default(8).describe('Solver attempts per bug (the RL group size); 0 = no solving'),
  strategy: z.enum(STRATEGY_CHOICES).default('mixed'),
  seed: z.number().int().default(0).describe('derives every episode id, strategy and sampling seed'),
  alpha: z.number().min(0).max(1).default(DEFAULT_INJECTOR_ALPHA),
  advantage: advantageEstimatorSchema.default(DEFAULT_ADVANTAGE_ESTIMATOR),
  // One default for the setting, with why it is not the method's 8: rl/staleness.ts.
  maxStaleness: z
    .number()
    .int()
    .nonnegative()
    .default(DEFAULT_MAX_STALENESS)
    .describe('train calls that may be in flight behind the sampling, and the oldest sample kept (versions); 0 = synchronous steps'),
  higherOrderCap: z.number().int().nonnegative().default(1).describe('order-2 bugs per order-1 bug at most'),
  trainRoles: z.enum(TRAIN_ROLES).default('both'),
  limitHits: z.enum(LIMIT_HIT_MODES).default('fail').describe('fail: a Solver attempt that hits a limit earns -1 and stays in its group (method §9); mask: graded, kept out of the loss'),
  emitSamples: z.boolean().default(true).describe('write RL samples (ssr corpus does not)'),
  injectorLimits: agentLimitOverridesSchema.default({}),
  solverLimits: agentLimitOverridesSchema.default({}),
  testTimeoutMs: positive.optional().describe("test_script.sh limit; default the repo's"),
  lanes: laneSizesSchema.default(laneSizesSchema.parse({})),
  trainerUrl: z.string().nullable().default(null),
  samplerUrl: z.string().nullable().default(null).describe("the policy's endpoint (--base-url): where the trainer's weights go after each step"),
  samplerSync: samplerSyncModeSchema.default('auto').describe('how the sampler loads the weights when it is not the trainer'),
  samplerCheckTolerance: z.number().positive().default(DEFAULT_PROBE_TOLERANCE).describe("largest mean |sampler − trainer| log-prob of the check after each sync (verify-sampler.ts)"),
  saveEvery: z.number().int().nonnegative().default(0).describe('a resumable trainer checkpoint (POST /weights/save) every N steps; 0 = none'),
  keepCheckpoints: z.number().int().positive().default(2).describe('resumable trainer checkpoints kept on its disk: each save deletes all but the newest N'),
  corpusDir: z.string().nullable().default(null).describe('solve-only mode: the run dir whose valid bugs are solved'),
  goldenGate: z.boolean().default(true).describe("run each repo's clean suite twice before any episode: quarantine flaky tests, raise a limit the suite is near (or refuse the repo)"),
  anchor: anchorSettingsSchema.nullable().default(null).describe('anchoring: real bugs mixed into the Solver groups (--anchor-set, --anchor-ratio); null: none'),
  allowOneUserGrading: z
    .boolean()
    .default(false)
    .describe('--allow-one-user-grading: train on a backend whose tests run as the sandbox\'s only user, where code under test can forge a +1 (golden-gate/one-user-policy.ts)'),
  leakPolicy: z.enum(LEAK_POLICIES).default('flag').describe('a Solver attempt that reached for a leak (scanLeaks): flag = record it; fail = it also earns −1'),
});
export type SelfplaySettings = z.infer<typeof selfplaySettingsSchema>;
export type SelfplaySettingsInput = z.input<typeof selfplaySettingsSchema>;

/** The settings a resume must repeat (run.json); lane sizes, the trainer, the sampler (and its check) and the checkpoint period and retention may change. */
export function resumeKey(settings: SelfplaySettings, extra: Record<string, unknown>): Record<string, unknown> {
  const { lanes: _lanes, trainerUrl, samplerUrl: _samplerUrl, samplerSync: _samplerSync, samplerCheckTolerance: _tolerance, saveEvery: _saveEvery, keepCheckpoints: _keepCheckpoints, leakPolicy, goldenGate, anchor, allowOneUserGrading, ...rest } = settings;
  // Defaults are left out so runs started before these settings existed still resume.
  return {
    ...rest, ...(leakPolicy === 'flag' ? {} : { leakPolicy }), ...(goldenGate ? {} : { goldenGate }), ...(anchor ? { anchor } : {}),
    ...(allowOneUserGrading ? { allowOneUserGrading } : {}), trainer: trainerUrl !== null, ...extra,
  };
}

/** Which roles' samples a run writes. */
export function trainsRole(settings: Pick<SelfplaySettings, 'trainRoles'>, role: 'injector' | 'solver'): boolean {
  return settings.trainRoles === 'both' || settings.trainRoles === role;
}
