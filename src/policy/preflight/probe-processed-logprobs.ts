import { EngineError } from '../../util/engine-error.js';
import { readCompletionTokens } from '../completion-tokens.js';
import type { JsonHttpClient } from '../http-client.js';
import { httpRejection } from '../http-failure.js';
import { completionBody } from '../sampling-settings.js';

const PROBE_TOKENS = 8;
/** A processed log-prob under top-k 1 is log 1 = 0; float noise stays far inside this. */
const ZERO = 1e-3;
const FIX = 'drop --sampler-logprobs processed (then sample at temperature 1, top-p 1, no top-k), or serve processed log-probs (vLLM --logprobs-mode processed_logprobs)';

/**
 * `--sampler-logprobs processed` checked, not taken on trust: a few tokens sampled with top-k 1.
 * Log-probs of the processed distribution give the one token top-k leaves probability 1 (log-prob
 * 0); raw log-probs are the model's own, below 0. A server that refuses top-k 1 (the ssr service
 * samples from the whole vocabulary) cannot return processed log-probs either.
 *
 * @throws EngineError `usage` naming the server, the route and the fix when the claim does not hold.
 */
export async function probeProcessedLogprobs(client: JsonHttpClient, root: string, model: string, signal?: AbortSignal): Promise<void> {
  const url = `${root}/v1/completions`;
  const { tokens } = (await client.postJson(`${root}/tokenize`, { model, messages: [{ role: 'user', content: 'ping' }], add_generation_prompt: true }, signal)) as { tokens: number[] };
  const body = completionBody({ model, prompt: tokens, maxTokens: PROBE_TOKENS, settings: { temperature: 1, topP: 1, topK: 1 }, seed: 0, ignoreEos: true });
  let answer: unknown;
  try {
    answer = await client.postJson(url, body, signal);
  } catch (error) {
    const rejection = httpRejection(error);
    if (rejection === undefined || rejection.status >= 500) throw error;
    throw new EngineError('usage', `--sampler-logprobs processed: ${url} refused a probe with top_k 1 (HTTP ${rejection.status}: ${rejection.body.replace(/\s+/g, ' ').slice(0, 200)}), so it cannot return processed log-probs: ${FIX}`);
  }
  const { logprobs } = readCompletionTokens(answer, url);
  const below = logprobs.filter((value) => value < -ZERO);
  if (logprobs.length === 0 || below.length > 0) {
    throw new EngineError(
      'usage',
      `--sampler-logprobs processed: ${url} sampled ${logprobs.length} tokens with top_k 1 and returned log-probs ${logprobs.map((value) => value.toFixed(3)).join(', ')}; ` +
        `the processed distribution gives the only token top-k leaves log-prob 0, so these are its raw log-probs: ${FIX}`,
    );
  }
}
