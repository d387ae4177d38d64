import { EngineError } from '../util/engine-error.js';
import { requestJson, serverRoot } from './http-json.js';
import type { SamplerKind } from './sampler-sync-mode.js';

const PROBE_TIMEOUT_MS = 15_000;

async function probe(url: string): Promise<{ status: number; body: unknown } | null> {
  try {
    return await requestJson(url, { method: 'GET' }, PROBE_TIMEOUT_MS);
  } catch {
    return null;
  }
}

/**
 * What serves `samplerUrl` (`--sampler-sync auto`): the ssr trainer service's `/health` has a
 * `policy_version`; SGLang answers `/get_server_info`; vLLM answers `/version` or lists its models
 * as `owned_by: "vllm"`.
 *
 * @throws EngineError `usage` when none of them answers as expected.
 */
export async function detectSampler(samplerUrl: string): Promise<SamplerKind> {
  const root = serverRoot(samplerUrl);
  const health = await probe(`${root}/health`);
  if (health?.status === 200 && typeof (health.body as { policy_version?: unknown } | null)?.policy_version === 'number') return 'ssr';
  if ((await probe(`${root}/get_server_info`))?.status === 200) return 'sglang';
  const version = await probe(`${root}/version`);
  if (version?.status === 200 && typeof (version.body as { version?: unknown } | null)?.version === 'string') return 'vllm-lora';
  const models = (await probe(`${root}/v1/models`))?.body as { data?: Array<{ owned_by?: unknown }> } | null | undefined;
  if (models?.data?.some((model) => model.owned_by === 'vllm')) return 'vllm-lora';
  throw new EngineError(
    'usage',
    `--sampler-sync auto: cannot tell what serves ${root} (no /health with policy_version, no /get_server_info, no vLLM /version): ` +
      'pass --sampler-sync ssr|sglang|vllm-lora, or none to leave the sampler at its weights (its samples then age out)',
  );
}
