import { z } from 'zod';

/**
 * How the sampler (`--base-url`) receives the trainer's new weights after each step:
 * `ssr` (a second trainer service: `/update_weights_from_disk`, confirmed by its `/health`),
 * `sglang` (`/update_weights_from_disk`), `vllm-lora` (`/v1/load_lora_adapter`, then sampled by
 * the adapter's name), `none` (never: its samples keep their old version and age out), `auto`
 * (detected from what the sampler answers).
 */
export const samplerSyncModeSchema = z.enum(['auto', 'sglang', 'vllm-lora', 'ssr', 'none']);
export type SamplerSyncMode = z.infer<typeof samplerSyncModeSchema>;

/** A mode that names one kind of server (what `auto` resolves to). */
export type SamplerKind = Exclude<SamplerSyncMode, 'auto' | 'none'>;
