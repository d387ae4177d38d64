import { EngineError } from '../util/engine-error.js';
import { serverRoot } from './http-json.js';
import type { SamplerSyncMode } from './sampler-sync-mode.js';
import type { SamplerState } from './sampler-state.js';
import { syncSampler } from './sampler-sync.js';
import { saveTrainerWeights, type TrainerCheckpoint } from './trainer-checkpoint.js';

/** Where the weights go: the trainer, the sampler (`--base-url`; null when the policy has none) and how to sync it. */
export interface WeightsRoute {
  trainerUrl: string;
  samplerUrl: string | null;
  samplerSync: SamplerSyncMode;
}

/** Whether the sampler is the trainer itself (then it serves each new version as soon as it trains it). */
export function samplesFromTrainer(route: WeightsRoute): boolean {
  return route.samplerUrl === null || serverRoot(route.samplerUrl) === serverRoot(route.trainerUrl);
}

/**
 * After the trainer reached `trainerVersion`: makes the sampler serve it and returns the version
 * (and model name) the SAMPLER confirmed, which later samples carry. The trainer's version when the
 * trainer samples itself; null with `--sampler-sync none` and a separate sampler (samples keep the
 * version the sampler reports, so they age out instead of passing as new).
 *
 * `saved`: a checkpoint the caller already had the trainer write after this step (`--save-every`),
 * used instead of a second save of the same weights (minutes on a real model).
 *
 * @throws EngineError when the trainer does not save that version or the sampler does not load it.
 */
export async function publishWeights(route: WeightsRoute, trainerVersion: number, saved?: TrainerCheckpoint): Promise<SamplerState | null> {
  if (samplesFromTrainer(route)) return { version: trainerVersion };
  if (route.samplerSync === 'none') return null;
  const checkpoint = saved ?? (await saveTrainerWeights(route.trainerUrl));
  if (checkpoint.version !== trainerVersion) {
    throw new EngineError('policy-unavailable', `the trainer at ${route.trainerUrl} saved version ${checkpoint.version}, but its step answered version ${trainerVersion}: another client is training it`);
  }
  return syncSampler(route.samplerUrl!, route.samplerSync, checkpoint);
}
