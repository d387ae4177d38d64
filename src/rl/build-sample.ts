import { exitEarnsReward, type ExitStatus } from '../agent/agent-exit.js';
import type { Trajectory } from '../agent/trajectory.js';
import type { TrajectoryStep } from '../agent/trajectory-record.js';
import { toOpenAIMessages, toOpenAITools } from '../policy/openai-messages.js';
import type { AgentRole, ChatMessage, TokenSample } from '../policy/policy.js';
import { buildTokenTrajectory, type TokenTrajectory } from '../policy/token-trajectory.js';
import { EngineError, errorMessage, isEngineError } from '../util/engine-error.js';
import { trainingSampleSchema, type MaskCode, type TrainingSample } from './training-sample.js';

/** Endings where a limit cut the episode short (method §8). */
export const LIMIT_EXITS: ReadonlySet<ExitStatus> = new Set(['turn-limit', 'context-limit', 'time-limit']);

/**
 * What a limit hit is worth (`--limit-hits`): `fail` (method §9) — a failed attempt that stays in
 * its group and in the loss; `mask` — graded, but kept out of the loss (DeepSWE's choice).
 */
export const LIMIT_HIT_MODES = ['fail', 'mask'] as const;
export type LimitHitMode = (typeof LIMIT_HIT_MODES)[number];

export interface BuildSampleInput {
  trajectory: Trajectory;
  role: AgentRole;
  groupId: string;
  /** The self-play episode the trajectory belongs to. */
  episodeId: string;
  bugId: string | null;
  /** The reward; null only for an ending that earns none (the sample is then masked, reward 0). */
  reward: number | null;
  /** How the episode ended; defaults to the trajectory's exit record. */
  exitStatus?: ExitStatus;
  /** Default: `<role>:<the trajectory's episode id>` (unique per agent run). */
  id?: string;
  /**
   * Mask trajectories that hit a turn, context or time limit (`--limit-hits mask`; default
   * false: method §9 counts a limit hit as a failed attempt that stays in the loss). DeepSWE masks
   * such truncated trajectories so the policy is not pushed away from long, unfinished reasoning.
   */
  maskLimitHits?: boolean;
  /** Anchoring: the trajectory solved a real bug of the anchor set (marked `anchor: true`). */
  anchor?: boolean;
}

function isComplete(steps: TrajectoryStep[]): steps is Array<TrajectoryStep & { sample: TokenSample }> {
  return steps.length > 0 && steps.every((step) => step.sample !== undefined);
}

/** The conversation as the model saw it: system, user, then per turn the reply and its observations. */
function chatOf(trajectory: Trajectory): ChatMessage[] {
  const { header, steps } = trajectory;
  return [
    { role: 'system', content: header.systemPrompt },
    { role: 'user', content: header.userPrompt },
    ...steps.flatMap((step) => [step.assistant, ...step.observations] as ChatMessage[]),
  ];
}

/** The first turn whose prompt ids are not provably exact (tokens mode): its code masks the whole episode. */
function unprovenMask(samples: TokenSample[]): { code: MaskCode; reason: string } | null {
  for (const [turn, sample] of samples.entries()) {
    if (sample.unproven) return { code: `tokens-${sample.unproven.code}`, reason: `turn ${turn + 1}: tokens not provably exact (${sample.unproven.code}): ${sample.unproven.detail}` };
    if ((sample.retokenizationWarnings ?? 0) > 0) return { code: 'tokens-retokenized', reason: `turn ${turn + 1}: its prompt was retokenised` };
  }
  return null;
}

/** Oldest weights that produced any turn: the conservative version for the staleness filter. */
function policyVersionOf(trajectory: Trajectory): number {
  const versions = trajectory.steps.flatMap((step) => [step.policyVersion, ...(step.sample ? [step.sample.policyVersion] : [])]);
  return versions.length === 0 ? trajectory.header.policy.version : Math.min(...versions);
}

/**
 * One trajectory → one {@link TrainingSample} (advantage 0 until `assignAdvantages`). Exact tokens
 * and loss mask when every turn carries a token sample (tokens mode), OpenAI chat messages and
 * tools otherwise. Masked (kept for logging, out of the loss) when the ending earns no reward
 * (infrastructure: `exitEarnsReward`), when a limit was hit and `maskLimitHits` is set, when the trajectory
 * has no exit record, when a turn's prompt ids are not provably exact (`unproven`), or when its
 * token samples do not chain (the tokens would not be the model's); `maskCode` says which.
 *
 * @throws EngineError `internal` when the role differs from the trajectory's, no exit status is
 *   known, or a reward is missing for an ending that earns one.
 */
export function buildTrainingSample(input: BuildSampleInput): TrainingSample {
  const { trajectory, role } = input;
  const { header } = trajectory;
  if (header.role !== role) throw new EngineError('internal', `trajectory ${header.episodeId} is a ${header.role} trajectory, not ${role}`);
  const exitStatus = input.exitStatus ?? trajectory.exit?.exitStatus;
  if (exitStatus === undefined) throw new EngineError('internal', `trajectory ${header.episodeId} has no exit record and no exit status was given`);
  const earns = exitEarnsReward(exitStatus);
  if (earns && input.reward === null) throw new EngineError('internal', `trajectory ${header.episodeId} ended ${exitStatus} but has no reward`);

  let mask: { code: MaskCode; reason: string } | null = !earns
    ? { code: 'no-reward', reason: `exit ${exitStatus} earns no reward` }
    : (input.maskLimitHits ?? false) && LIMIT_EXITS.has(exitStatus)
      ? { code: 'limit-hit', reason: `limit hit: ${exitStatus}` }
      : trajectory.exit === null
        ? { code: 'cut-short', reason: 'trajectory has no exit record (cut short)' }
        : null;

  let tokens: TokenTrajectory | null = null;
  let sampling: TokenSample['sampling'];
  if (isComplete(trajectory.steps)) {
    const samples = trajectory.steps.map((step) => step.sample);
    sampling = samples[0]!.sampling;
    mask ??= unprovenMask(samples);
    try {
      tokens = buildTokenTrajectory(samples);
    } catch (error) {
      if (!isEngineError(error)) throw error;
      mask ??= { code: 'tokens-inconsistent', reason: `tokens inconsistent: ${errorMessage(error)}` };
    }
  }
  const maskReason = mask?.reason ?? null;
  const sample: TrainingSample = {
    id: input.id ?? `${role}:${header.episodeId}`,
    role,
    groupId: input.groupId,
    episodeId: input.episodeId,
    bugId: input.bugId,
    policyVersion: policyVersionOf(trajectory),
    reward: earns ? input.reward! : (input.reward ?? 0),
    advantage: 0,
    finishReason: exitStatus,
    masked: mask !== null,
    maskReason,
    maskCode: mask?.code ?? null,
    tokens: tokens ? { ids: tokens.tokens, lossMask: tokens.lossMask, logprobs: tokens.logprobs } : null,
    messages: tokens ? null : (toOpenAIMessages(chatOf(trajectory)) as Array<Record<string, unknown>>),
    tools: tokens ? null : (toOpenAITools(header.tools) as unknown as Array<Record<string, unknown>>),
    ...(tokens && sampling ? { sampling } : {}),
    ...(input.anchor ? { anchor: true as const } : {}),
  };
  const parsed = trainingSampleSchema.safeParse(sample);
  if (!parsed.success) throw new EngineError('internal', `training sample ${sample.id}: ${parsed.error.message}`);
  return parsed.data;
}
