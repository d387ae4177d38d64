import { z } from 'zod';
import { EngineError } from '../util/engine-error.js';

/**
 * What the sampler's log-probs are: `raw`, the model's own distribution (only right when it
 * sampled at temperature 1, top-p 1, no top-k), or `processed`, the distribution after
 * temperature / top-p / top-k (vLLM `--logprobs-mode processed_logprobs`), which the trainer
 * corrects with a truncated importance weight.
 */
export const samplerLogprobsSchema = z.enum(['raw', 'processed']);
export type SamplerLogprobs = z.infer<typeof samplerLogprobsSchema>;

/** The settings that produced a sample: recorded on every turn and every training sample. */
export const samplingSettingsSchema = z.object({
  temperature: z.number().min(0),
  topP: z.number().gt(0).max(1),
  /** -1: no top-k (sent explicitly: vLLM's "disabled"). */
  topK: z.number().int().refine((k) => k === -1 || k > 0, 'topK must be -1 (none) or positive'),
  logprobs: samplerLogprobsSchema,
});
export type SamplingSettings = z.infer<typeof samplingSettingsSchema>;

/**
 * Every sampling parameter tokens mode does not set, at the value that leaves the distribution
 * alone, sent explicitly with each request: a server fills an absent one from its own defaults
 * (vLLM's default `--generation-config auto` takes `repetition_penalty`, `min_p` … from the model's
 * generation config) while still returning raw log-probs, which would then not describe what
 * sampled. No `logit_bias` is sent (none is the neutral value). `top_k` -1 ("off") is in the
 * settings: vLLM, SGLang and the ssr service all read -1 that way.
 */
export const NEUTRAL_SAMPLING_PARAMS = { repetition_penalty: 1, presence_penalty: 0, frequency_penalty: 0, min_p: 0 } as const;

/**
 * The `/v1/completions` body tokens mode samples with, and the sampler probes send the same way:
 * token ids in, token ids and one log-prob per token out, the settings' temperature / top-p / top-k
 * and every other parameter at its neutral value.
 */
export function completionBody(fields: {
  model?: string;
  prompt: readonly number[];
  maxTokens: number;
  settings: Pick<SamplingSettings, 'temperature' | 'topP' | 'topK'>;
  seed?: number;
  ignoreEos?: boolean;
}): Record<string, unknown> {
  const { model, prompt, maxTokens, settings, seed, ignoreEos } = fields;
  return {
    ...(model === undefined ? {} : { model }),
    prompt, max_tokens: maxTokens, temperature: settings.temperature, top_p: settings.topP, top_k: settings.topK,
    ...NEUTRAL_SAMPLING_PARAMS,
    ...(seed === undefined ? {} : { seed }),
    ...(ignoreEos ? { ignore_eos: true } : {}),
    logprobs: 1, return_tokens_as_token_ids: true, skip_special_tokens: false,
  };
}

/** Behaviour = sampler: the distribution raw log-probs describe. */
export const RAW_SAMPLING: SamplingSettings = { temperature: 1, topP: 1, topK: -1, logprobs: 'raw' };

/**
 * The tokens policy's sampling settings from its options: temperature 1, top-p 1, no top-k
 * unless the sampler returns processed log-probs.
 *
 * @throws EngineError `usage` for other settings with raw log-probs: the behaviour log-probs
 *   would not be those of the distribution that sampled, and every importance ratio would be off.
 */
export function resolveSamplingSettings(options: { temperature?: number; topP?: number; topK?: number; samplerLogprobs?: SamplerLogprobs }): SamplingSettings {
  const settings: SamplingSettings = {
    temperature: options.temperature ?? 1,
    topP: options.topP ?? 1,
    topK: options.topK ?? -1,
    logprobs: options.samplerLogprobs ?? 'raw',
  };
  const parsed = samplingSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new EngineError('usage', `tokens policy sampling settings: ${z.prettifyError(parsed.error)}`);
  if (settings.logprobs === 'raw' && (settings.temperature !== 1 || settings.topP !== 1 || settings.topK !== -1)) {
    throw new EngineError(
      'usage',
      `--policy tokens samples at temperature 1, top-p 1 and no top-k (got temperature ${settings.temperature}, top-p ${settings.topP}, ` +
        `top-k ${settings.topK === -1 ? 'none' : settings.topK}): the server's raw log-probs describe only that distribution, and RL's ` +
        'importance ratios need the log-probs of what sampled. Drop the setting, or serve processed log-probs ' +
        '(vLLM --logprobs-mode processed_logprobs) and pass --sampler-logprobs processed (the trainer then applies a truncated importance correction).',
    );
  }
  return parsed.data;
}
