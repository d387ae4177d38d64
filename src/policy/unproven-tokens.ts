import { z } from 'zod';

/**
 * Why a turn's prompt ids cannot be shown to be exactly what the conversation means; the episode
 * is then masked (never trained), and counted by this code.
 *
 * - `state-lost`: the policy holds no token state for the episode (history it did not sample, or
 *   forgotten), so the whole prompt was rendered anew.
 * - `prefix-mismatch`: the fixed prefix renders differently once messages follow it.
 * - `context-dependent`: how the template renders the new messages depends on the history before them.
 * - `stop-token-mismatch`: the completion stopped on a token other than the one the template closes a turn with.
 */
export const unprovenTokensCodeSchema = z.enum(['state-lost', 'prefix-mismatch', 'context-dependent', 'stop-token-mismatch']);
export type UnprovenTokensCode = z.infer<typeof unprovenTokensCodeSchema>;

export const unprovenTokensSchema = z.object({ code: unprovenTokensCodeSchema, detail: z.string() });
export type UnprovenTokens = z.infer<typeof unprovenTokensSchema>;
