import { z } from 'zod';
import { submissionSchema } from '../tools/submission.js';

/**
 * How an episode ended. Every ending yields the same {@link AgentExit} record; the first five are
 * the model's doing and are scored (a limit keeps what was last submitted), the rest are not the
 * model's doing and the episode is discarded (see {@link exitEarnsReward}).
 */
export const exitStatusSchema = z.enum([
  /** Submitted, then ended with a plain message (no tool call). */
  'submitted',
  'turn-limit',
  'context-limit',
  'time-limit',
  /** Too many turns in a row without exactly one valid tool call. */
  'format-errors',
  /** The policy ended without submitting and said why (see PolicyTurn.gaveUp): not a format error. */
  'gave-up',
  /** The policy or the sandbox threw an EngineError (endpoint down, Docker gone, …). */
  'infrastructure-error',
  /** The policy threw something other than an EngineError (a bug in the client). */
  'policy-error',
  /** A tool threw something other than an EngineError (a bug in a tool). */
  'tool-error',
  /** The caller aborted the episode. */
  'cancelled',
]);
export type ExitStatus = z.infer<typeof exitStatusSchema>;

const SCORED: ReadonlySet<ExitStatus> = new Set(['submitted', 'turn-limit', 'context-limit', 'time-limit', 'format-errors', 'gave-up']);

/** Whether an ending may be scored; the others are infrastructure and never become rewards. */
export function exitEarnsReward(status: ExitStatus): boolean {
  return SCORED.has(status);
}

export const tokenUsageSchema = z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative() });

export const agentExitSchema = z.object({
  exitStatus: exitStatusSchema,
  /** The last submission (contents read by the harness), or null if the model never submitted. */
  submission: submissionSchema.nullable(),
  /** Policy queries made. */
  turns: z.number().int().nonnegative(),
  /** Sums over all turns (prompt tokens are counted again on every turn, as a server bills them). */
  usage: tokenUsageSchema,
  /** Size of the conversation at the end, tokens (reported by the policy, or estimated). */
  contextTokens: z.number().int().nonnegative(),
  /** Turns that were format errors (no, several, unknown or malformed tool calls). */
  formatErrors: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
  error: z.object({ message: z.string(), code: z.string().optional(), retryable: z.boolean().optional() }).optional(),
  /** `gave-up` only: the policy's own reason (its closing message). */
  gaveUp: z.string().optional(),
});
export type AgentExit = z.infer<typeof agentExitSchema>;
