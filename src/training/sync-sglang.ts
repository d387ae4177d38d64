import { requestJson, serverRoot } from './http-json.js';
import type { SamplerState } from './sampler-state.js';
import { bodyHead, syncFailure } from './sync-failure.js';
import type { TrainerCheckpoint } from './trainer-checkpoint.js';

const LOAD_TIMEOUT_MS = 30 * 60_000;
const ROUTE = 'POST /update_weights_from_disk';

/**
 * SGLang as the sampler: `/update_weights_from_disk` with the trainer's full-weights checkpoint.
 * An SGLang with weight versions (`GET /get_weight_version`) is told the version and must report
 * it back; an older one is taken at its `success`.
 */
export async function syncSglang(samplerUrl: string, checkpoint: TrainerCheckpoint): Promise<SamplerState> {
  const root = serverRoot(samplerUrl);
  if (checkpoint.kind !== 'full') {
    throw syncFailure(root, ROUTE, 'the trainer saves a LoRA adapter, and this route loads full weights',
      'Train full weights (no --lora) for SGLang, or serve with vLLM and --sampler-sync vllm-lora');
  }
  const versioned = (await requestJson(`${root}/get_weight_version`, { method: 'GET' }, LOAD_TIMEOUT_MS)).status === 200;
  const body = { model_path: checkpoint.path, ...(versioned ? { weight_version: String(checkpoint.version) } : {}) };
  const load = await requestJson(`${root}/update_weights_from_disk`, { method: 'POST', body }, LOAD_TIMEOUT_MS);
  if (load.status === 404) {
    throw syncFailure(root, ROUTE, `HTTP 404: ${bodyHead(load.text)}`, 'This server has no such route: use an SGLang with /update_weights_from_disk, or pass the --sampler-sync that matches the server');
  }
  if (load.status !== 200 || (load.body as { success?: unknown } | null)?.success !== true) {
    throw syncFailure(root, ROUTE, `HTTP ${load.status}: ${bodyHead(load.text)}`,
      `The checkpoint ${checkpoint.path} must be readable at that path by SGLang (a shared filesystem) and hold the served model's architecture`);
  }
  if (versioned) {
    const answer = await requestJson(`${root}/get_weight_version`, { method: 'GET' }, LOAD_TIMEOUT_MS);
    const served = (answer.body as { weight_version?: unknown } | null)?.weight_version;
    if (served !== String(checkpoint.version)) {
      throw syncFailure(root, 'GET /get_weight_version', `after loading version ${checkpoint.version} it reports ${JSON.stringify(served ?? null)}`,
        'The version did not move: the sampler is not serving the new weights; restart it');
    }
  }
  return { version: checkpoint.version };
}
