import { EngineError } from '../util/engine-error.js';

/** What one `/v1/completions` call sampled, token-exact. */
export interface SampledCompletion {
  text: string;
  tokenIds: number[];
  logprobs: number[];
  finishReason: 'stop' | 'length';
  /** `policy_version` at the top level of the response, when the server reports one (our trainer does). */
  policyVersion?: number;
}

interface CompletionChoice {
  text?: unknown;
  token_ids?: unknown;
  finish_reason?: unknown;
  logprobs?: { tokens?: unknown; token_logprobs?: unknown };
}

/**
 * Reads the sampled ids and their logprobs from either shape: ours (`choices[0].token_ids` +
 * `logprobs.token_logprobs`) or vLLM's with `return_tokens_as_token_ids` (`logprobs.tokens` as
 * `"token_id:123"` strings). A response without exact ids is an error: RL must not guess tokens.
 */
export function readCompletionTokens(response: unknown, url: string): SampledCompletion {
  const body = response as { choices?: CompletionChoice[]; policy_version?: unknown };
  const choice = body?.choices?.[0];
  const bad = (why: string) => new EngineError('policy-unavailable', `malformed completion from ${url}: ${why}`);
  if (!choice) throw bad('no choices[0]');
  const tokenIds = Array.isArray(choice.token_ids) ? choice.token_ids : vllmTokenIds(choice.logprobs?.tokens);
  if (!tokenIds) throw bad('no token ids (need choices[0].token_ids, or logprobs.tokens as "token_id:N" with return_tokens_as_token_ids)');
  if (!tokenIds.every((id) => Number.isInteger(id) && id >= 0)) throw bad('token ids must be non-negative integers');
  const logprobs = choice.logprobs?.token_logprobs;
  if (!Array.isArray(logprobs) || !logprobs.every((value) => typeof value === 'number')) throw bad('logprobs.token_logprobs must be an array of numbers');
  if (logprobs.length !== tokenIds.length) throw bad(`${tokenIds.length} token ids but ${logprobs.length} logprobs`);
  const version = body.policy_version;
  return {
    text: typeof choice.text === 'string' ? choice.text : '',
    tokenIds: tokenIds as number[],
    logprobs: logprobs as number[],
    finishReason: choice.finish_reason === 'length' ? 'length' : 'stop',
    ...(typeof version === 'number' ? { policyVersion: version } : {}),
  };
}

function vllmTokenIds(tokens: unknown): number[] | undefined {
  if (!Array.isArray(tokens)) return undefined;
  const ids: number[] = [];
  for (const token of tokens) {
    const match = typeof token === 'string' ? /^token_id:(\d+)$/.exec(token) : null;
    if (!match) return undefined;
    ids.push(Number(match[1]));
  }
  return ids;
}
