import { EngineError } from '../util/engine-error.js';
import type { JsonHttpClient } from './http-client.js';

export type Env = Record<string, string | undefined>;

export interface EndpointOptions {
  /** Server root, with or without a trailing `/v1`. Falls back to `OPENAI_BASE_URL`. */
  baseUrl?: string;
  /** Falls back to `OPENAI_API_KEY`. */
  apiKey?: string;
}

/** Where an OpenAI-compatible server lives: `root` has no trailing `/` or `/v1`. */
export interface Endpoint {
  root: string;
  apiKey?: string;
}

/** Resolves flags over environment; a missing or malformed URL is a usage error. */
export function resolveEndpoint(options: EndpointOptions, env: Env = process.env): Endpoint {
  const baseUrl = options.baseUrl ?? nonEmpty(env.OPENAI_BASE_URL);
  if (baseUrl === undefined) throw new EngineError('usage', 'no model endpoint: pass --base-url or set OPENAI_BASE_URL');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new EngineError('usage', `--base-url: not a URL: "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EngineError('usage', `--base-url: expected http:// or https://, got "${baseUrl}"`);
  const root = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const apiKey = options.apiKey ?? nonEmpty(env.OPENAI_API_KEY);
  return apiKey === undefined ? { root } : { root, apiKey };
}

/** The served model when none was named: the first entry of `GET /v1/models` (vLLM serves one). */
export async function fetchDefaultModel(client: JsonHttpClient, root: string, signal?: AbortSignal): Promise<string> {
  const listing = (await client.getJson(`${root}/v1/models`, signal)) as { data?: Array<{ id?: unknown }> };
  const id = listing?.data?.[0]?.id;
  if (typeof id !== 'string' || id === '') {
    throw new EngineError('policy-unavailable', `no model named and ${root}/v1/models lists none: pass --model`);
  }
  return id;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
