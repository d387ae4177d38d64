import { detectSampler } from './detect-sampler.js';
import type { SamplerKind, SamplerSyncMode } from './sampler-sync-mode.js';
import type { SamplerState } from './sampler-state.js';
import { syncSglang } from './sync-sglang.js';
import { syncSsrService } from './sync-ssr.js';
import { syncVllmLora } from './sync-vllm-lora.js';
import type { TrainerCheckpoint } from './trainer-checkpoint.js';

const SYNCS: Record<SamplerKind, (samplerUrl: string, checkpoint: TrainerCheckpoint) => Promise<SamplerState>> = {
  ssr: syncSsrService,
  sglang: syncSglang,
  'vllm-lora': syncVllmLora,
};

/** `auto` is detected once per sampler URL, not at every step. */
const detected = new Map<string, Promise<SamplerKind>>();

/** The kind of server `mode` names (`auto`: detected). */
export function samplerKind(samplerUrl: string, mode: Exclude<SamplerSyncMode, 'none'>): Promise<SamplerKind> {
  if (mode !== 'auto') return Promise.resolve(mode);
  let kind = detected.get(samplerUrl);
  if (kind === undefined) {
    kind = detectSampler(samplerUrl);
    detected.set(samplerUrl, kind);
    kind.catch(() => detected.delete(samplerUrl));
  }
  return kind;
}

/**
 * Makes the sampler serve the trainer's checkpoint and returns what it confirmed serving.
 *
 * @throws EngineError naming the sampler's URL, the route and what to do when it cannot load
 *   (404 on the route, a path it cannot read, a version that does not move).
 */
export async function syncSampler(samplerUrl: string, mode: Exclude<SamplerSyncMode, 'none'>, checkpoint: TrainerCheckpoint): Promise<SamplerState> {
  return SYNCS[await samplerKind(samplerUrl, mode)](samplerUrl, checkpoint);
}
