/** What the sampler confirmed it serves after a sync: the version, and the model name to request it by when that changed. */
export interface SamplerState {
  version: number;
  /** vLLM LoRA: the adapter's name, which later requests must use as `model`. */
  model?: string;
}
