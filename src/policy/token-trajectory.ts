import { EngineError } from '../util/engine-error.js';
import type { TokenSample } from './policy.js';

/** One episode as the trainer consumes it: a single token sequence, trained only where `lossMask` is 1. */
export interface TokenTrajectory {
  tokens: number[];
  /** 1 on tokens the policy sampled, 0 on prompts, tool outputs and template glue. */
  lossMask: Array<0 | 1>;
  /** The sampler's logprob on sampled tokens, null elsewhere. */
  logprobs: Array<number | null>;
}

/**
 * Joins the per-turn samples of one episode (in order) into one sequence. Each turn's prompt must
 * start with everything before it (previous prompt + previous completion): that is the
 * no-retokenisation invariant of the tokens policy, checked here so a broken episode fails loudly
 * instead of training on tokens the model never produced.
 */
export function buildTokenTrajectory(samples: TokenSample[]): TokenTrajectory {
  const trajectory: TokenTrajectory = { tokens: [], lossMask: [], logprobs: [] };
  samples.forEach((sample, turn) => {
    const { tokens } = trajectory;
    const divergence = firstDifference(sample.promptTokenIds, tokens);
    if (divergence !== -1) {
      throw new EngineError(
        'internal',
        `turn ${turn}: its prompt does not extend the episode's tokens so far (first difference at position ${divergence} of ${tokens.length})`,
      );
    }
    if (sample.completionLogprobs.length !== sample.completionTokenIds.length) {
      throw new EngineError('internal', `turn ${turn}: ${sample.completionTokenIds.length} sampled tokens but ${sample.completionLogprobs.length} logprobs`);
    }
    for (const id of sample.promptTokenIds.slice(tokens.length)) push(trajectory, id, 0, null);
    sample.completionTokenIds.forEach((id, i) => push(trajectory, id, 1, sample.completionLogprobs[i]!));
  });
  return trajectory;
}

/** First index where `prompt` fails to start with `prefix`, or -1. */
function firstDifference(prompt: number[], prefix: number[]): number {
  for (let i = 0; i < prefix.length; i++) if (prompt[i] !== prefix[i]) return i;
  return -1;
}

function push(trajectory: TokenTrajectory, id: number, mask: 0 | 1, logprob: number | null): void {
  trajectory.tokens.push(id);
  trajectory.lossMask.push(mask);
  trajectory.logprobs.push(logprob);
}
