import { EngineError, isEngineError } from '../../util/engine-error.js';
import type { JsonHttpClient } from '../http-client.js';

const FIX = '--policy tokens needs /tokenize with chat messages (vLLM, or trainer/\'s service): use --policy openai with other servers';

/**
 * Tokenizes a one-message chat the way every tokens-mode turn does (with a tool when the chat
 * template renders them). Returns the `max_model_len` /tokenize reports, when it does.
 */
export async function probeTokenize(client: JsonHttpClient, root: string, model: string, withTools: boolean, signal?: AbortSignal): Promise<number | undefined> {
  const url = `${root}/tokenize`;
  const tool = { type: 'function', function: { name: 'ping', description: 'Answer the ping.', parameters: { type: 'object', properties: {} } } };
  const body = { model, messages: [{ role: 'user', content: 'ping' }], add_generation_prompt: true, ...(withTools ? { tools: [tool] } : {}) };
  let response: { tokens?: unknown; max_model_len?: unknown };
  try {
    response = (await client.postJson(url, body, signal)) as typeof response;
  } catch (error) {
    if (isEngineError(error) && !error.retryable) throw new EngineError(error.code, `${error.message}: ${FIX}`, { cause: error });
    throw error;
  }
  if (!Array.isArray(response?.tokens) || response.tokens.length === 0) {
    throw new EngineError('policy-unavailable', `${url}: expected {"tokens": [ids…]}, got ${JSON.stringify(response).slice(0, 120)}: ${FIX}`);
  }
  return typeof response.max_model_len === 'number' && response.max_model_len > 0 ? response.max_model_len : undefined;
}
