import { z } from 'zod';
import { agentExitSchema, tokenUsageSchema } from './agent-exit.js';
import { agentLimitsSchema } from './agent-limits.js';

/** Bumped when a line's shape changes incompatibly. */
export const TRAJECTORY_FORMAT = 1;

const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.unknown() });

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCallSchema).optional() }),
  z.object({ role: z.literal('tool'), content: z.string(), toolCallId: z.string(), name: z.string() }),
]);

const tokenSampleSchema = z.object({
  promptTokenIds: z.array(z.number().int()),
  completionTokenIds: z.array(z.number().int()),
  completionLogprobs: z.array(z.number()),
  policyVersion: z.number().int(),
});

/** First line: everything needed to replay the episode's prompt. */
export const trajectoryHeaderSchema = z.object({
  type: z.literal('header'),
  format: z.literal(TRAJECTORY_FORMAT),
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
  sample: tokenSampleSchema.optional(),
});

export const trajectoryExitSchema = agentExitSchema.extend({ type: z.literal('exit') });

export const trajectoryRecordSchema = z.discriminatedUnion('type', [trajectoryHeaderSchema, trajectoryStepSchema, trajectoryExitSchema]);
export type TrajectoryHeader = z.infer<typeof trajectoryHeaderSchema>;
export type TrajectoryStep = z.infer<typeof trajectoryStepSchema>;
export type TrajectoryExit = z.infer<typeof trajectoryExitSchema>;
export type TrajectoryRecord = z.infer<typeof trajectoryRecordSchema>;
