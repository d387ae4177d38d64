import { requestJson, serverRoot } from './http-json.js';
import type { SamplerState } from './sampler-state.js';
import { bodyHead, syncFailure } from './sync-failure.js';
import type { TrainerCheckpoint } from './trainer-checkpoint.js';

const LOAD_TIMEOUT_MS = 30 * 60_000;
const ROUTE = 'POST /update_weights_from_disk';

/**
 * A second ssr trainer service as the sampler: it loads the checkpoint (SGLang's request body),
 * then its `/health` must report the checkpoint's version — the version its completions carry.
 */
export async function syncSsrService(samplerUrl: string, checkpoint: TrainerCheckpoint): Promise<SamplerState> {
  const root = serverRoot(samplerUrl);
  const load = await requestJson(`${root}/update_weights_from_disk`, { method: 'POST', body: { model_path: checkpoint.path, load_format: 'auto' } }, LOAD_TIMEOUT_MS);
  if (load.status === 404) {
    throw syncFailure(root, ROUTE, `HTTP 404: ${bodyHead(load.text)}`, 'Start the sampler as an ssr trainer service of this version (python3 -m ssr_trainer.service), or pass the --sampler-sync that matches it');
  }
  if (load.status !== 200 || (load.body as { success?: unknown } | null)?.success !== true) {
    throw syncFailure(root, ROUTE, `HTTP ${load.status}: ${bodyHead(load.text)}`,
      `The checkpoint ${checkpoint.path} must be readable at that path by the sampler (a shared filesystem) and both services started with the same model flags`);
  }
  const health = await requestJson(`${root}/health`, { method: 'GET' }, LOAD_TIMEOUT_MS);
  const served = (health.body as { policy_version?: unknown } | null)?.policy_version;
  if (served !== checkpoint.version) {
    throw syncFailure(root, 'GET /health', `after loading version ${checkpoint.version} it reports policy_version ${JSON.stringify(served ?? null)}`,
      'The version did not move: the sampler is not serving the new weights; restart it, or check that --base-url is the service that loaded them');
  }
  return { version: checkpoint.version };
}
