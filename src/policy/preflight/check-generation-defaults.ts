import { EngineError } from '../../util/engine-error.js';
import type { JsonHttpClient } from '../http-client.js';
import type { ServedModel } from './read-served-models.js';

/**
 * The sampling parameters tokens mode sends with every request (`completionBody`: temperature,
 * top-p, top-k and NEUTRAL_SAMPLING_PARAMS, max tokens, seed, special-token handling), under the
 * names vLLM and SGLang use. A server default for one of these never applies: vLLM's OpenAI
 * server and SGLang (its `preferred_sampling_params` are merged under the request's) take the
 * request's value over their own.
 */
const SENT_BY_SSR = new Set([
  'temperature', 'top_p', 'top_k', 'min_p', 'repetition_penalty', 'presence_penalty', 'frequency_penalty',
  'max_tokens', 'max_new_tokens', 'seed', 'sampling_seed', 'skip_special_tokens',
]);

/** Defaults that change neither the distribution nor which tokens come back. */
const HARMLESS = new Set(['n', 'stream_interval', 'spaces_between_special_tokens', 'return_hidden_states']);

/** null, false, 0, '' and empty lists / maps: the value that leaves sampling alone for a parameter ssr does not send. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

const SGLANG_FIX =
  'restart SGLang without them in --preferred-sampling-params (or with their neutral value: no logit_bias, min_new_tokens 0, no stop, no regex / json_schema / ebnf)';

/**
 * Reads the generation defaults a sampler applies to what a request leaves out, where it says
 * (SGLang: `GET /get_server_info`'s `preferred_sampling_params` and `sampling_defaults`), and
 * refuses one whose defaults would still alter the sampled distribution (or which tokens come
 * back) although ssr sends every sampling parameter it knows at its neutral value: the behaviour
 * log-probs would then not describe what sampled. Defaults ssr overrides explicitly, and those a
 * server does not expose (vLLM's `--generation-config auto`), become notes.
 *
 * @returns notes for the run's log (what was overridden, what could not be read).
 * @throws EngineError `usage` naming the server, the route, the parameter and what to do.
 */
export async function checkGenerationDefaults(client: JsonHttpClient, root: string, model: ServedModel, signal?: AbortSignal): Promise<string[]> {
  if (model.ownedBy === 'vllm') return [await vllmNote(client, root, signal)];
  const found = await readSglangServerInfo(client, root, signal);
  if (found === undefined) return [];
  const { url, info } = found;
  const notes: string[] = [];
  const preferred = parsePreferred(info.preferred_sampling_params, url);
  const altering = Object.entries(preferred).filter(([key, value]) => !SENT_BY_SSR.has(key) && !HARMLESS.has(key) && !isEmpty(value));
  if (altering.length > 0) {
    const list = altering.map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(', ');
    throw new EngineError(
      'usage',
      `${url}: SGLang applies preferred_sampling_params ${list} to every request that leaves ${altering.length === 1 ? 'it' : 'them'} out, and ssr's tokens mode does not send ${altering.length === 1 ? 'it' : 'them'}: ` +
        `the sampled tokens would not come from the distribution the log-probs describe. ${SGLANG_FIX}`,
    );
  }
  const overridden = Object.entries(preferred).filter(([key]) => SENT_BY_SSR.has(key));
  if (overridden.length > 0) {
    notes.push(`${url}: preferred_sampling_params ${overridden.map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(', ')} never apply: ssr sends each explicitly (temperature / top-p / top-k as configured, every penalty neutral)`);
  }
  if (info.sampling_defaults === 'model') {
    notes.push(`${url}: sampling_defaults "model" fills temperature, top_p, top_k, min_p and repetition_penalty from the model's generation config, whose values SGLang does not report: ssr sends each explicitly, so they never apply (--sampling-defaults openai drops them)`);
  }
  return notes;
}

/** SGLang's server arguments: `/get_server_info`, which newer versions keep as a deprecated alias of `/server_info`. */
async function readSglangServerInfo(client: JsonHttpClient, root: string, signal?: AbortSignal): Promise<{ url: string; info: Record<string, unknown> } | undefined> {
  for (const route of ['/get_server_info', '/server_info']) {
    const url = `${root}${route}`;
    const info = (await client.getJson(url, signal).catch(() => undefined)) as Record<string, unknown> | undefined;
    if (typeof info === 'object' && info !== null && ('preferred_sampling_params' in info || 'sampling_defaults' in info)) return { url, info };
  }
  return undefined;
}

/** SGLang reports `--preferred-sampling-params` as the JSON text it was given (or null); some versions as an object. */
function parsePreferred(value: unknown, url: string): Record<string, unknown> {
  if (value === null || value === undefined || value === '') return {};
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new EngineError('usage', `${url}: preferred_sampling_params is not JSON (${value.slice(0, 120)}), so ssr cannot tell what it changes: ${SGLANG_FIX}`);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new EngineError('usage', `${url}: preferred_sampling_params is ${JSON.stringify(parsed).slice(0, 120)}, not an object, so ssr cannot tell what it changes: ${SGLANG_FIX}`);
  }
  return parsed as Record<string, unknown>;
}

/** The parameters vLLM's `--generation-config auto` may fill from the model (`get_diff_sampling_param`). */
const VLLM_GENERATION_PARAMS = 'repetition_penalty, temperature, top_k, top_p, min_p';

/**
 * vLLM reports its generation defaults only in its start-up log ("Default sampling parameters have
 * been overridden by the model's Hugging Face generation config") and, started with
 * VLLM_SERVER_DEV_MODE=1, in `GET /server_info?config_format=json` (the source it reads them from,
 * not their values). Every parameter it may fill is one ssr sends explicitly, which vLLM takes
 * over the default: the note says so, and which defaults could not be read.
 */
async function vllmNote(client: JsonHttpClient, root: string, signal?: AbortSignal): Promise<string> {
  const url = `${root}/server_info?config_format=json`;
  const info = (await client.getJson(url, signal).catch(() => undefined)) as { vllm_config?: { model_config?: Record<string, unknown> } } | undefined;
  const config = info?.vllm_config?.model_config;
  const source = typeof config?.generation_config === 'string' ? config.generation_config : undefined;
  const override = config?.override_generation_config;
  const overrides = typeof override === 'object' && override !== null && Object.keys(override).length > 0 ? `, overridden by ${JSON.stringify(override)}` : '';
  if (source === 'vllm') return `${url}: generation_config "vllm": no defaults from the model's generation config${overrides}; ssr sends ${VLLM_GENERATION_PARAMS} explicitly`;
  const read = source === undefined ? `${root} (vLLM) does not report its generation defaults (only its start-up log, or /server_info with VLLM_SERVER_DEV_MODE=1), so ssr could not read them` : `${url}: generation_config "${source}"${overrides}`;
  return `${read}: ${VLLM_GENERATION_PARAMS} may come from the model's generation config, and ssr sends each explicitly, which vLLM takes over its defaults (--generation-config vllm turns them off)`;
}
