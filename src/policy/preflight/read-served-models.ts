import { EngineError } from '../../util/engine-error.js';
import type { JsonHttpClient } from '../http-client.js';

/** One entry of `GET /v1/models`; vLLM (and trainer/'s service) add `max_model_len`. */
export interface ServedModel {
  id: string;
  maxModelLen?: number;
  /** `owned_by`: `vllm` for a vLLM server. */
  ownedBy?: string;
}

/** The models a server lists, or a specific error saying what was expected instead. */
export async function readServedModels(client: JsonHttpClient, root: string, signal?: AbortSignal): Promise<ServedModel[]> {
  const url = `${root}/v1/models`;
  const listing = (await client.getJson(url, signal)) as { data?: unknown };
  const data = Array.isArray(listing?.data) ? (listing.data as Array<{ id?: unknown; max_model_len?: unknown; owned_by?: unknown }>) : undefined;
  const models = (data ?? []).filter((entry) => typeof entry?.id === 'string' && entry.id !== '');
  if (models.length === 0) {
    const got = JSON.stringify(listing).slice(0, 120);
    throw new EngineError('policy-unavailable', `${url}: expected {"data": [{"id": "<model>"}, …]} listing at least one model, got ${got}: check --base-url`);
  }
  return models.map((entry) => {
    const maxModelLen = entry.max_model_len;
    const owner = typeof entry.owned_by === 'string' ? { ownedBy: entry.owned_by } : {};
    return typeof maxModelLen === 'number' && maxModelLen > 0 ? { id: entry.id as string, maxModelLen, ...owner } : { id: entry.id as string, ...owner };
  });
}
