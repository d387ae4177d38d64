import { z } from 'zod';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../tools/tool.js';

/** Episode limits (method §8); every one configurable, defaults are the paper's. */
export const agentLimitsSchema = z.object({
  maxTurns: z.number().int().positive().default(128).describe('Policy queries per episode.'),
  maxContextTokens: z.number().int().positive().default(128_000).describe('Prompt + completion tokens of the conversation.'),
  maxWallMs: z.number().int().positive().default(60 * 60_000).describe('Wall time of the whole episode, ms.'),
  commandTimeoutMs: z.number().int().positive().default(DEFAULT_COMMAND_TIMEOUT_MS).describe('Time limit of one bash command, ms.'),
  maxFormatErrorStreak: z
    .number()
    .int()
    .positive()
    .default(5)
    .describe('Consecutive turns without one valid tool call before the episode ends.'),
});
export type AgentLimits = z.infer<typeof agentLimitsSchema>;

const limit = agentLimitsSchema.shape;
/**
 * Limits a user set, each optional and without a default. `agentLimitsSchema.partial()` is not
 * that: zod 4 still fills the defaults of a partial object's fields, so a command limit nobody set
 * would look set and keep roleLimits from deriving it from the repo's test limit.
 */
export const agentLimitOverridesSchema = z.object({
  maxTurns: limit.maxTurns.unwrap().optional(),
  maxContextTokens: limit.maxContextTokens.unwrap().optional(),
  maxWallMs: limit.maxWallMs.unwrap().optional(),
  commandTimeoutMs: limit.commandTimeoutMs.unwrap().optional(),
  maxFormatErrorStreak: limit.maxFormatErrorStreak.unwrap().optional(),
});
