import { z } from 'zod';
import { samplingSettingsSchema } from '../policy/sampling-settings.js';
import { unprovenTokensSchema } from '../policy/unproven-tokens.js';
import { agentExitSchema, tokenUsageSchema } from './agent-exit.js';
import { agentLimitsSchema } from './agent-limits.js';

/**
 * The format `JsonlTrajectoryWriter` writes; bumped when a line's shape changes incompatibly.
 * 1: each step's `sample` holds the turn's full `promptTokenIds`.
 * 2: each step's `sample` holds only what the turn added to the prompt (`promptPrefixTokens` +
 *    `promptTokenIdsAdded`): a file grows with the episode's context, not with turns × context.
 * `readTrajectory` reads every format in {@link READABLE_TRAJECTORY_FORMATS} into full samples.
 */
export const TRAJECTORY_FORMAT = 2;
export const READABLE_TRAJECTORY_FORMATS = [1, 2] as const;

const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.unknown() });

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCallSchema).optional() }),
  z.object({ role: z.literal('tool'), content: z.string(), toolCallId: z.string(), name: z.string() }),
]);

const sampledTokensShape = {
  completionTokenIds: z.array(z.number().int()),
  completionLogprobs: z.array(z.number()),
  policyVersion: z.number().int(),
  retokenizationWarnings: z.number().int().nonnegative().optional(),
  unproven: unprovenTokensSchema.optional(),
  sampling: samplingSettingsSchema.optional(),
};

/** A turn's exact tokens (`TokenSample`): in memory, and a step line's `sample` in format 1. */
export const tokenSampleSchema = z.object({
  /** The full prompt the sampler saw. */
  promptTokenIds: z.array(z.number().int()),
  ...sampledTokensShape,
});

/**
 * A step line's `sample` in format 2: the prompt as a delta on the previous step's sample. The
 * prompt is `promptPrefixTokens` leading ids equal to the previous step's prompt + completion
 * (exactly all of them, or 0), then `promptTokenIdsAdded`. The tokens policy's prompts extend the
 * previous turn, so the prefix is 0 only on the first turn, after a step without a sample, or when
 * a prompt did not extend the previous turn (state lost, retokenised): that step stores its full
 * prompt and `buildTokenTrajectory` still rejects the episode. `reconstructPromptTokenIds` undoes it.
 */
export const storedTokenSampleSchema = z.object({
  promptPrefixTokens: z.number().int().nonnegative(),
  promptTokenIdsAdded: z.array(z.number().int()),
  ...sampledTokensShape,
});
export type StoredTokenSample = z.infer<typeof storedTokenSampleSchema>;

/** First line: everything needed to replay the episode's prompt. */
export const trajectoryHeaderSchema = z.object({
  type: z.literal('header'),
  /** The line format of the file (see {@link TRAJECTORY_FORMAT}); records in memory carry the current one. */
  format: z.literal(READABLE_TRAJECTORY_FORMATS),
  episodeId: z.string(),
  role: z.enum(['injector', 'solver']),
  policy: z.object({ name: z.string(), version: z.number() }),
  seed: z.number().int().optional(),
  limits: agentLimitsSchema,
  systemPrompt: z.string(),
  userPrompt: z.string(),
  tools: z.array(z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) })),
  startedAt: z.string(),
});

/** One line per policy turn, written as soon as its observation exists. */
export const trajectoryStepSchema = z.object({
  type: z.literal('step'),
  /** 1-based. */
  turn: z.number().int().positive(),
  assistant: chatMessageSchema,
  /** The call that ran (absent when the turn made none, several, or an invalid one). */
  toolCall: toolCallSchema.optional(),
  /** Observations appended after the assistant message (empty on the final summary turn). */
  observations: z.array(chatMessageSchema),
  isError: z.boolean().optional(),
  formatError: z.string().optional(),
  /** The turn's submit was accepted. */
  submitted: z.boolean(),
  finishReason: z.enum(['stop', 'length', 'tool_calls']),
  usage: tokenUsageSchema,
  /** Weights that produced this turn (the trainer's staleness filter reads it). */
  policyVersion: z.number(),
  timings: z.object({ policyMs: z.number(), toolMs: z.number() }),
  /** Exact tokens (tokens mode), always with the full prompt: files store it as {@link trajectoryStepLineSchema} says. */
  sample: tokenSampleSchema.optional(),
});

/**
 * A step as a line of a trajectory file: format 1 stores the full {@link tokenSampleSchema},
 * format 2 the {@link storedTokenSampleSchema} delta; every other field is the step's own.
 */
export const trajectoryStepLineSchema = trajectoryStepSchema.extend({
  sample: z.union([tokenSampleSchema, storedTokenSampleSchema]).optional(),
});

export const trajectoryExitSchema = agentExitSchema.extend({ type: z.literal('exit') });

/** A record of an episode in memory (what a `TrajectorySink` receives; steps carry full samples). */
export const trajectoryRecordSchema = z.discriminatedUnion('type', [trajectoryHeaderSchema, trajectoryStepSchema, trajectoryExitSchema]);
/** One line of a trajectory file, of any readable format. */
export const trajectoryLineSchema = z.discriminatedUnion('type', [trajectoryHeaderSchema, trajectoryStepLineSchema, trajectoryExitSchema]);
export type TrajectoryHeader = z.infer<typeof trajectoryHeaderSchema>;
export type TrajectoryStep = z.infer<typeof trajectoryStepSchema>;
export type TrajectoryExit = z.infer<typeof trajectoryExitSchema>;
export type TrajectoryRecord = z.infer<typeof trajectoryRecordSchema>;
export type TrajectoryStepLine = z.infer<typeof trajectoryStepLineSchema>;
export type TrajectoryLine = z.infer<typeof trajectoryLineSchema>;
