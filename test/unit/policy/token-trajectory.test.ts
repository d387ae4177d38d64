import { describe, expect, it } from 'vitest';
import type { TokenSample } from '../../../src/policy/policy.js';
import { buildTokenTrajectory } from '../../../src/policy/token-trajectory.js';

function sample(prompt: number[], completion: number[]): TokenSample {
  return { promptTokenIds: prompt, completionTokenIds: completion, completionLogprobs: completion.map((id) => -id / 100), policyVersion: 1 };
}

describe('buildTokenTrajectory', () => {
  it('masks prompts and tool outputs, trains on sampled tokens, aligns logprobs', () => {
    const trajectory = buildTokenTrajectory([sample([1, 2], [10, 11]), sample([1, 2, 10, 11, 3], [12]), sample([1, 2, 10, 11, 3, 12, 4, 5], [13, 14])]);
    expect(trajectory.tokens).toEqual([1, 2, 10, 11, 3, 12, 4, 5, 13, 14]);
    expect(trajectory.lossMask).toEqual([0, 0, 1, 1, 0, 1, 0, 0, 1, 1]);
    expect(trajectory.logprobs).toEqual([null, null, -0.1, -0.11, null, -0.12, null, null, -0.13, -0.14]);
  });

  it('returns an empty trajectory for no turns', () => {
    expect(buildTokenTrajectory([])).toEqual({ tokens: [], lossMask: [], logprobs: [] });
  });

  it.each<[string, TokenSample[], string]>([
    ['a prompt that retokenised the previous completion', [sample([1, 2], [10, 11]), sample([1, 2, 99, 3], [12])], 'turn 1: its prompt does not extend the episode\'s tokens so far (first difference at position 2 of 4)'],
    ['a prompt shorter than the sequence so far', [sample([1, 2], [10]), sample([1, 2], [12])], 'first difference at position 2'],
    ['logprobs that do not match the ids', [{ ...sample([1], [10, 11]), completionLogprobs: [-1] }], 'turn 0: 2 sampled tokens but 1 logprobs'],
  ])('rejects %s', (_case, samples, message) => {
    expect(() => buildTokenTrajectory(samples)).toThrow(message);
  });
});
