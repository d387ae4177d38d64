import { EngineError, errorMessage } from '../util/engine-error.js';

/** One HTTP answer: its status, its body parsed as JSON (null when it is not JSON) and as text. */
export interface HttpAnswer {
  status: number;
  body: unknown;
  text: string;
}

/**
 * One request, no retries (a weight load is not idempotent in time: a retry could load into a
 * sampler that moved on). Only an unreachable server throws; any HTTP status is the caller's to judge.
 *
 * @throws EngineError `policy-unavailable` when `url` cannot be reached in `timeoutMs`.
 */
export async function requestJson(url: string, init: { method: 'GET' | 'POST'; body?: unknown }, timeoutMs: number): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new EngineError('policy-unavailable', `cannot reach ${url}: ${errorMessage(error)}`, { retryable: true, cause: error });
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Left null: vLLM answers some routes with plain text; callers word errors with `text`.
  }
  return { status: response.status, body, text };
}

/** A server root without a trailing `/` or `/v1`, for URL comparison and route building. */
export function serverRoot(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}
