import { describe, expect, it } from 'vitest';
import { readCompletionTokens } from '../../../src/policy/completion-tokens.js';

const URL = 'http://h/v1/completions';

describe('readCompletionTokens', () => {
  it('reads vLLM ids given as "token_id:N" strings', () => {
    const body = { choices: [{ text: 'ab', finish_reason: 'stop', logprobs: { tokens: ['token_id:97', 'token_id:98'], token_logprobs: [-0.5, -0.25] } }] };
    expect(readCompletionTokens(body, URL)).toEqual({ text: 'ab', tokenIds: [97, 98], logprobs: [-0.5, -0.25], finishReason: 'stop' });
  });

  it('reads the simple shape and a top-level policy_version', () => {
    const body = { policy_version: 12, choices: [{ text: 'x', finish_reason: 'length', token_ids: [5], logprobs: { token_logprobs: [-1] } }] };
    expect(readCompletionTokens(body, URL)).toEqual({ text: 'x', tokenIds: [5], logprobs: [-1], finishReason: 'length', policyVersion: 12 });
  });

  it.each<[string, unknown, string]>([
    ['no choices', { choices: [] }, 'no choices[0]'],
    ['tokens as text (return_tokens_as_token_ids not honoured)', { choices: [{ logprobs: { tokens: ['a'], token_logprobs: [-1] } }] }, 'no token ids'],
    ['negative id', { choices: [{ token_ids: [-1], logprobs: { token_logprobs: [-1] } }] }, 'non-negative integers'],
    ['missing logprobs', { choices: [{ token_ids: [1] }] }, 'token_logprobs must be an array of numbers'],
    ['null logprob', { choices: [{ token_ids: [1], logprobs: { token_logprobs: [null] } }] }, 'token_logprobs must be an array of numbers'],
    ['length mismatch', { choices: [{ token_ids: [1, 2], logprobs: { token_logprobs: [-1] } }] }, '2 token ids but 1 logprobs'],
  ])('rejects %s', (_case, body, fragment) => {
    expect(() => readCompletionTokens(body, URL)).toThrow(fragment);
  });
});
