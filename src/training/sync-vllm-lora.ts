import { requestJson, serverRoot } from './http-json.js';
import type { SamplerState } from './sampler-state.js';
import { bodyHead, syncFailure } from './sync-failure.js';
import type { TrainerCheckpoint } from './trainer-checkpoint.js';

const LOAD_TIMEOUT_MS = 10 * 60_000;
const ROUTE = 'POST /v1/load_lora_adapter';
const HOW_TO_START = 'start vLLM with --enable-lora (and --max-lora-rank at least the trainer\'s --lora-rank) and VLLM_ALLOW_RUNTIME_LORA_UPDATING=True in its environment';

/** The adapter name of a version: what requests name as `model` to sample from it. */
export const adapterName = (version: number): string => `ssr-v${version}`;

/**
 * vLLM as the sampler, the trainer training a LoRA adapter: the adapter is loaded at runtime as
 * `ssr-v<N>` and must then be listed by `/v1/models`; later requests name it as their model.
 */
export async function syncVllmLora(samplerUrl: string, checkpoint: TrainerCheckpoint): Promise<SamplerState> {
  const root = serverRoot(samplerUrl);
  const name = adapterName(checkpoint.version);
  if (checkpoint.kind !== 'lora') {
    throw syncFailure(root, ROUTE, 'the trainer saves full weights, and vLLM loads only LoRA adapters at runtime',
      'Start the trainer service with --lora, or serve with SGLang and --sampler-sync sglang');
  }
  const load = await requestJson(`${root}/v1/load_lora_adapter`, { method: 'POST', body: { lora_name: name, lora_path: checkpoint.path } }, LOAD_TIMEOUT_MS);
  // A resumed run may load a version a second time; vLLM refuses the duplicate name with a 400.
  const already = load.status === 400 && /already been loaded/i.test(load.text);
  if (load.status === 404) throw syncFailure(root, ROUTE, `HTTP 404: ${bodyHead(load.text)}`, `Runtime LoRA loading is off: ${HOW_TO_START}`);
  if (load.status !== 200 && !already) {
    throw syncFailure(root, ROUTE, `HTTP ${load.status}: ${bodyHead(load.text)}`,
      `The adapter ${checkpoint.path} must be readable at that path by vLLM (a shared filesystem); ${HOW_TO_START}`);
  }
  const models = await requestJson(`${root}/v1/models`, { method: 'GET' }, LOAD_TIMEOUT_MS);
  const listed = (models.body as { data?: Array<{ id?: unknown }> } | null)?.data?.some((model) => model.id === name) ?? false;
  if (!listed) {
    throw syncFailure(root, 'GET /v1/models', `after loading it does not list ${name}`, 'The version did not move: the sampler is not serving the new adapter; restart vLLM');
  }
  return { version: checkpoint.version, model: name };
}
