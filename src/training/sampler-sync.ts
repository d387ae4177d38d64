import { detectSampler } from './detect-sampler.js';
import type { SamplerKind, SamplerSyncMode } from './sampler-sync-mode.js';
import type { SamplerState } from './sampler-state.js';
import { syncSglang } from './sync-sglang.js';
import { syncSsrService } from './sync-ssr.js';
import { syncVllmLora } from './sync-vllm-lora.js';
import type { TrainerCheckpoint } from './trainer-checkpoint.js';
import { verifySampler } from './verify-sampler.js';

const SYNCS: Record<SamplerKind, (samplerUrl: string, checkpoint: TrainerCheckpoint, runTag: string) => Promise<SamplerState>> = {
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

/** Who checks the sampler after a load: the trainer (its `POST /logprobs`) and the run's tag for adapter names. */
export interface SyncCheck {
  trainerUrl: string;
  /** See run-tag.ts. */
  runTag: string;
  /** See verifySampler; default DEFAULT_PROBE_TOLERANCE. */
  tolerance?: number;
}

/**
 * Makes the sampler serve the trainer's checkpoint, checks that it serves the trainer's weights
 * (verifySampler: its log-probs of a probe against the trainer's) and returns what it serves.
 * A load's own answer is never the proof.
 *
 * @throws EngineError naming the sampler's URL, the route and what to do when it cannot load
 *   (404 on the route, a path it cannot read, a version that does not move) or serves other weights.
 */
export async function syncSampler(samplerUrl: string, mode: Exclude<SamplerSyncMode, 'none'>, checkpoint: TrainerCheckpoint, check: SyncCheck): Promise<SamplerState> {
  const kind = await samplerKind(samplerUrl, mode);
  const state = await SYNCS[kind](samplerUrl, checkpoint, check.runTag);
  await verifySampler({ samplerUrl, kind, ...(state.model === undefined ? {} : { model: state.model }), trainerUrl: check.trainerUrl, version: state.version, ...(check.tolerance === undefined ? {} : { tolerance: check.tolerance }) });
  return state;
}
