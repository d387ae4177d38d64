import { z } from 'zod';
import { samplingSettingsSchema } from '../policy/sampling-settings.js';
import { unprovenTokensCodeSchema } from '../policy/unproven-tokens.js';

/**
 * Why a sample is masked, as a code the step metrics count: an ending that earns no reward, a
 * limit hit, a trajectory cut short, token samples that do not chain, or prompt ids that cannot
 * be proven exact (`tokens-<UnprovenTokensCode>`; `tokens-retokenized` for format-1 files).
 */
export const maskCodeSchema = z.enum([
  'no-reward',
  'limit-hit',
  'cut-short',
  'tokens-inconsistent',
  'tokens-retokenized',
  ...unprovenTokensCodeSchema.options.map((code) => `tokens-${code}` as const),
]);
export type MaskCode = z.infer<typeof maskCodeSchema>;

/**
 * One RL training sample: one trajectory of one role, with its reward and group-relative
 * advantage. Written as JSONL to `<run>/samples/v<N>.jsonl` (N: the version it is trained at) and POSTed to the
 * trainer's `/train/step`; the Python trainer validates the same fields (trainer/README.md).
 */
export const trainingSampleSchema = z.object({
  id: z.string().min(1).describe('unique: episode id + role + attempt'),
  role: z.enum(['injector', 'solver']),
  groupId: z.string().min(1).describe('solver: the bug id (+order); injector: repo/commit/strategy prompt'),
  episodeId: z.string().min(1),
  bugId: z.string().nullable(),
  policyVersion: z.number().int().min(0).describe('weights version that sampled this trajectory'),
  reward: z.number(),
  advantage: z.number(),
  finishReason: z.string().describe('the agent exit status'),
  masked: z.boolean().describe('kept for logging but excluded from the loss (limits hit, infrastructure)'),
  maskReason: z.string().nullable(),
  maskCode: maskCodeSchema.nullable().optional().describe('the reason as a code (null when not masked); absent in older runs'),
  tokens: z
    .object({
      ids: z.array(z.number().int().min(0)),
      lossMask: z.array(z.union([z.literal(0), z.literal(1)])),
      logprobs: z.array(z.number().nullable()).describe('sampler logprob per token; null where lossMask is 0'),
    })
    .nullable()
    .describe('exact token sequence (tokens mode); null when the policy ran in chat mode'),
  messages: z.array(z.record(z.string(), z.unknown())).nullable().describe('chat messages when no tokens are available'),
  anchor: z
    .literal(true)
    .optional()
    .describe('anchoring: a Solver attempt on a real bug of the anchor set (grouped, rewarded and trained like any); absent otherwise'),
  sampling: samplingSettingsSchema
    .optional()
    .describe('tokens mode: the settings that sampled it; processed logprobs make the trainer apply a truncated importance correction'),
  tools: z
    .array(z.record(z.string(), z.unknown()))
    .nullable()
    .optional()
    .describe('OpenAI tool specs offered to the model, to render `messages` with the chat template (chat mode)'),
});
export type TrainingSample = z.infer<typeof trainingSampleSchema>;
