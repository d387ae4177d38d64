import { requestJson, serverRoot, type HttpAnswer } from './http-json.js';
import type { SamplerState } from './sampler-state.js';
import { bodyHead, syncFailure } from './sync-failure.js';
import type { TrainerCheckpoint } from './trainer-checkpoint.js';

const LOAD_TIMEOUT_MS = 10 * 60_000;
const ROUTE = 'POST /v1/load_lora_adapter';
const UNLOAD_ROUTE = 'POST /v1/unload_lora_adapter';
const HOW_TO_START = 'start vLLM with --enable-lora (and --max-lora-rank at least the trainer\'s --lora-rank) and VLLM_ALLOW_RUNTIME_LORA_UPDATING=True in its environment';
const ALREADY_LOADED = /already been loaded/i;

/**
 * The adapter name of a version of a run (`runTag`, see run-tag.ts): what requests name as
 * `model` to sample from it. Unique per run, so an adapter another run left in a long-lived vLLM
 * is never taken for this run's version.
 */
export const adapterName = (tag: string, version: number): string => `ssr-${tag}-v${version}`;

const load = (root: string, name: string, path: string): Promise<HttpAnswer> =>
  requestJson(`${root}/v1/load_lora_adapter`, { method: 'POST', body: { lora_name: name, lora_path: path, load_inplace: true } }, LOAD_TIMEOUT_MS);

/**
 * vLLM as the sampler, the trainer training a LoRA adapter: the adapter is loaded at runtime as
 * `ssr-<run>-v<N>` and must then be listed by `/v1/models`; later requests name it as their model.
 * A name this run loaded before (a `--resume` that retrains a version) is replaced: in place
 * (`load_inplace`, vLLM ≥ 0.11), or, where vLLM answers "already been loaded", unloaded and loaded
 * afresh. That answer is never taken as success: the adapter it has may be other weights.
 * Whether the sampler then serves the trainer's weights is checked afterwards (verify-sampler.ts).
 */
export async function syncVllmLora(samplerUrl: string, checkpoint: TrainerCheckpoint, tag: string): Promise<SamplerState> {
  const root = serverRoot(samplerUrl);
  const name = adapterName(tag, checkpoint.version);
  if (checkpoint.kind !== 'lora') {
    throw syncFailure(root, ROUTE, 'the trainer saves full weights, and vLLM loads only LoRA adapters at runtime',
      'Start the trainer service with --lora, or serve with SGLang and --sampler-sync sglang');
  }
  let answer = await load(root, name, checkpoint.path);
  if (answer.status === 400 && ALREADY_LOADED.test(answer.text)) {
    // An older vLLM ignores load_inplace: take the old adapter out, then load the checkpoint under its name.
    const unload = await requestJson(`${root}/v1/unload_lora_adapter`, { method: 'POST', body: { lora_name: name } }, LOAD_TIMEOUT_MS);
    if (unload.status !== 200) {
      throw syncFailure(root, UNLOAD_ROUTE, `${name} was already loaded (perhaps other weights) and unloading it gave HTTP ${unload.status}: ${bodyHead(unload.text)}`,
        `Restart vLLM so that it serves no adapter named ${name}; ${HOW_TO_START}`);
    }
    answer = await load(root, name, checkpoint.path);
  }
  if (answer.status === 404) throw syncFailure(root, ROUTE, `HTTP 404: ${bodyHead(answer.text)}`, `Runtime LoRA loading is off: ${HOW_TO_START}`);
  if (answer.status !== 200) {
    throw syncFailure(root, ROUTE, `HTTP ${answer.status}: ${bodyHead(answer.text)}`,
      `The adapter ${checkpoint.path} must be readable at that path by vLLM (a shared filesystem); ${HOW_TO_START}`);
  }
  const models = await requestJson(`${root}/v1/models`, { method: 'GET' }, LOAD_TIMEOUT_MS);
  const listed = (models.body as { data?: Array<{ id?: unknown }> } | null)?.data?.some((model) => model.id === name) ?? false;
  if (!listed) {
    throw syncFailure(root, 'GET /v1/models', `after loading it does not list ${name}`, 'The version did not move: the sampler is not serving the new adapter; restart vLLM');
  }
  return { version: checkpoint.version, model: name };
}
