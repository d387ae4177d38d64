import type { JsonHttpClient } from '../http-client.js';
import type { ServedModel } from './read-served-models.js';
import type { ContextSource } from './server-facts.js';

interface ContextProbe {
  source: ContextSource;
  read(client: JsonHttpClient, root: string, model: ServedModel, signal?: AbortSignal): Promise<number | undefined>;
}

/** SGLang reports `context_length` at the top level (older) or under `server_args` / `model_config`. */
async function sglangField(client: JsonHttpClient, url: string, signal?: AbortSignal): Promise<number | undefined> {
  const info = (await client.getJson(url, signal).catch(() => undefined)) as Record<string, Record<string, unknown> | unknown> | undefined;
  const candidates = [info?.context_length, (info?.server_args as Record<string, unknown>)?.context_length, (info?.model_config as Record<string, unknown>)?.context_len];
  return candidates.find((value): value is number => typeof value === 'number' && value > 0);
}

/** Where servers state a model's context, asked in order; the first answer wins. */
const CONTEXT_PROBES: ContextProbe[] = [
  { source: 'vllm /v1/models max_model_len', read: async (_client, _root, model) => model.maxModelLen },
  { source: 'sglang /get_model_info', read: (client, root, _model, signal) => sglangField(client, `${root}/get_model_info`, signal) },
  { source: 'sglang /get_server_info', read: (client, root, _model, signal) => sglangField(client, `${root}/get_server_info`, signal) },
];

/** The served model's context length and where it was read, or undefined when the server does not say. */
export async function readContextLength(
  client: JsonHttpClient,
  root: string,
  model: ServedModel,
  signal?: AbortSignal,
): Promise<{ tokens: number; source: ContextSource } | undefined> {
  for (const probe of CONTEXT_PROBES) {
    const tokens = await probe.read(client, root, model, signal);
    if (tokens !== undefined) return { tokens, source: probe.source };
  }
  return undefined;
}
