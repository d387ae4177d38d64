import { z } from 'zod';
import { EngineError } from '../util/engine-error.js';
import { requestJson, serverRoot } from './http-json.js';

/** What `POST /weights/save` answers: where the trainer wrote its weights, and which version they are. */
export const trainerCheckpointSchema = z.object({
  path: z.string().min(1),
  version: z.number().int().nonnegative(),
  kind: z.enum(['full', 'lora']),
  /** Whether it holds the optimizer and training state a `--resume` needs (absent: an older trainer, which always saved them). */
  resumable: z.boolean().optional(),
  /** The older checkpoints of the same kind the trainer deleted after this save (`keep`). */
  removed: z.array(z.string()).optional(),
});
export type TrainerCheckpoint = z.infer<typeof trainerCheckpointSchema>;

/** Saving hashes every file it writes: minutes for a large model. */
const SAVE_TIMEOUT_MS = 30 * 60_000;

/** What to save: weights only (a sampler's export) or a resumable checkpoint, and how many of that kind to keep. */
export interface SaveRequest {
  /** Only the weights (the adapter for LoRA): what a sampler loads, a third of a resumable checkpoint with AdamW. */
  weightsOnly: boolean;
  /** Delete all but this many newest checkpoints of the same kind once this one is written; undefined: delete none. */
  keep?: number;
}

/**
 * Asks the trainer to save its current weights (`POST /weights/save`, to its own `--output-dir`
 * as `v<version>`, weights-only exports under `sampler/`). The path is on the trainer's
 * filesystem: a sampler on another machine must see it at the same path.
 *
 * @throws EngineError `policy-unavailable` when the trainer cannot be reached or does not save;
 *   a full disk (HTTP 507) names the path and what to do, from the trainer's answer. Never
 *   retryable: the run stops before it samples from weights the sampler does not have.
 */
export async function saveTrainerWeights(trainerUrl: string, request: SaveRequest = { weightsOnly: false }): Promise<TrainerCheckpoint> {
  const url = `${serverRoot(trainerUrl)}/weights/save`;
  const payload = { weights_only: request.weightsOnly, ...(request.keep === undefined ? {} : { keep: request.keep }) };
  const { status, body, text } = await requestJson(url, { method: 'POST', body: payload }, SAVE_TIMEOUT_MS);
  if (status === 507) {
    const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
    throw new EngineError('policy-unavailable', `the trainer's disk is full: POST ${url} answered HTTP 507: ${typeof message === 'string' ? message : text.slice(0, 500)}`);
  }
  const parsed = trainerCheckpointSchema.safeParse(body);
  if (status !== 200 || !parsed.success) {
    throw new EngineError('policy-unavailable', `the trainer did not save its weights: HTTP ${status} from POST ${url}: ${text.slice(0, 300)}`);
  }
  return parsed.data;
}
