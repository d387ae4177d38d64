import { describe, expect, it } from 'vitest';
import { reconstructPromptTokenIds, restoreTokenSample, storeTokenSample } from '../../../src/agent/token-sample-delta.js';
import type { StoredTokenSample } from '../../../src/agent/trajectory-record.js';
import type { TokenSample } from '../../../src/policy/policy.js';
import { EngineError } from '../../../src/util/engine-error.js';

function sample(prompt: number[], completion: number[], extra: Partial<TokenSample> = {}): TokenSample {
  return { promptTokenIds: prompt, completionTokenIds: completion, completionLogprobs: completion.map((id) => -id / 100), policyVersion: 2, ...extra };
}

const previous = sample([1, 2, 3], [10, 11]);

describe('storeTokenSample', () => {
  it.each<[string, TokenSample | undefined, number[], number, number[]]>([
    ['the first turn keeps its whole prompt', undefined, [1, 2, 3], 0, [1, 2, 3]],
    ['a prompt extending prompt + completion keeps only the new ids', previous, [1, 2, 3, 10, 11, 4, 5], 5, [4, 5]],
    ['a prompt equal to prompt + completion adds nothing', previous, [1, 2, 3, 10, 11], 5, []],
    ['a prompt that retokenised the completion keeps everything', previous, [1, 2, 3, 99, 11, 4], 0, [1, 2, 3, 99, 11, 4]],
    ['a prompt that changed the earlier prompt keeps everything', previous, [1, 7, 3, 10, 11, 4], 0, [1, 7, 3, 10, 11, 4]],
    ['a prompt shorter than prompt + completion keeps everything', previous, [1, 2, 3, 10], 0, [1, 2, 3, 10]],
  ])('%s', (_case, before, prompt, prefix, added) => {
    const stored = storeTokenSample(sample(prompt, [12], { retokenizationWarnings: 0 }), before);
    expect(stored).toEqual({
      promptPrefixTokens: prefix, promptTokenIdsAdded: added, completionTokenIds: [12], completionLogprobs: [-0.12], policyVersion: 2, retokenizationWarnings: 0,
    });
    expect(stored).not.toHaveProperty('promptTokenIds');
    expect(reconstructPromptTokenIds(stored, before)).toEqual(prompt);
    expect(restoreTokenSample(stored, before)).toEqual(sample(prompt, [12], { retokenizationWarnings: 0 }));
  });
});

describe('reconstructPromptTokenIds', () => {
  const stored = (prefix: number): StoredTokenSample => ({ ...storeTokenSample(sample([4], [12]), undefined), promptPrefixTokens: prefix });

  it.each<[string, number, TokenSample | undefined, RegExp]>([
    ['a prefix shorter than the previous turn', 3, previous, /promptPrefixTokens 3 is neither 0 nor the previous turn's 5 prompt \+ completion ids/],
    ['a prefix longer than the previous turn', 6, previous, /promptPrefixTokens 6 is neither 0 nor the previous turn's 5/],
    ['a prefix with no previous turn', 2, undefined, /promptPrefixTokens 2 but no previous step has a token sample/],
  ])('rejects %s', (_case, prefix, before, message) => {
    const error = (() => {
      try {
        return reconstructPromptTokenIds(stored(prefix), before);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('artifact-invalid-input');
    expect((error as EngineError).message).toMatch(message);
  });

  it('does not share arrays with the stored line or the previous sample', () => {
    const line = storeTokenSample(sample([1, 2, 3, 10, 11, 4], [12]), previous);
    const prompt = reconstructPromptTokenIds(line, previous);
    prompt.push(99);
    expect(previous.promptTokenIds).toEqual([1, 2, 3]);
    expect(line.promptTokenIdsAdded).toEqual([4]);
  });
});
