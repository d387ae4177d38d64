import { EngineError } from '../util/engine-error.js';
import { serverRoot } from './http-json.js';
import type { SamplerSyncMode } from './sampler-sync-mode.js';
import type { SamplerState } from './sampler-state.js';
import { samplerKind, syncSampler } from './sampler-sync.js';
import { saveTrainerWeights, type TrainerCheckpoint } from './trainer-checkpoint.js';
import { verifySampler } from './verify-sampler.js';

/** Where the weights go: the trainer, the sampler (`--base-url`; null when the policy has none) and how to sync it. */
export interface WeightsRoute {
  trainerUrl: string;
  samplerUrl: string | null;
  samplerSync: SamplerSyncMode;
  /** Names this run's adapters (run-tag.ts). */
  runTag: string;
  /** The sampler check's tolerance (verifySampler); default DEFAULT_PROBE_TOLERANCE. */
  tolerance?: number;
  /** `--max-staleness`: how many versions behind the newest a sample may be, so how many exports a sampler may still read. */
  maxStaleness: number;
}

/**
 * The weights-only exports kept on the trainer's disk when a new one is written: the new one,
 * the one the sampler serves until it loads the new one, and the `maxStaleness` before it, which
 * requests still in flight may name (vLLM reloads an evicted adapter from its path). Older ones
 * are deleted: every sample they could produce is dropped as stale.
 */
export function exportsToKeep(maxStaleness: number): number {
  return maxStaleness + 2;
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
 * The sampler gets a weights-only export (the adapter for LoRA; `exportsToKeep` of them stay on
 * disk), never a resumable checkpoint of its own. `saved`: a resumable checkpoint the caller
 * already had the trainer write after this step (`--save-every`), used instead of a second save
 * of the same weights (minutes on a real model).
 *
 * @throws EngineError when the trainer does not save that version or the sampler does not load it.
 */
export async function publishWeights(route: WeightsRoute, trainerVersion: number, saved?: TrainerCheckpoint): Promise<SamplerState | null> {
  if (samplesFromTrainer(route)) return { version: trainerVersion };
  if (route.samplerSync === 'none') return null;
  const checkpoint = saved ?? (await saveTrainerWeights(route.trainerUrl, { weightsOnly: true, keep: exportsToKeep(route.maxStaleness) }));
  if (checkpoint.version !== trainerVersion) {
    throw new EngineError('policy-unavailable', `the trainer at ${route.trainerUrl} saved version ${checkpoint.version}, but its step answered version ${trainerVersion}: another client is training it`);
  }
  return syncSampler(route.samplerUrl!, route.samplerSync, checkpoint, { trainerUrl: route.trainerUrl, runTag: route.runTag, ...(route.tolerance === undefined ? {} : { tolerance: route.tolerance }) });
}

/**
 * Before a run's first sample, with the trainer at version 0 (nothing to load): a separate sampler
 * must already serve the trainer's weights (the same base model, no penalties), checked as after
 * a sync. The version to sample as, or null with `--sampler-sync none`.
 *
 * @throws EngineError see verifySampler.
 */
export async function checkStartingSampler(route: WeightsRoute): Promise<SamplerState | null> {
  if (samplesFromTrainer(route)) return { version: 0 };
  if (route.samplerSync === 'none') return null;
  const kind = await samplerKind(route.samplerUrl!, route.samplerSync);
  await verifySampler({ samplerUrl: route.samplerUrl!, kind, trainerUrl: route.trainerUrl, version: 0, ...(route.tolerance === undefined ? {} : { tolerance: route.tolerance }) });
  return { version: 0 };
}
