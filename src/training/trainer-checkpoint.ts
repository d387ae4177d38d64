import { z } from 'zod';
import { EngineError } from '../util/engine-error.js';
import { requestJson, serverRoot } from './http-json.js';

/** What `POST /weights/save` answers: where the trainer wrote its weights, and which version they are. */
export const trainerCheckpointSchema = z.object({
  path: z.string().min(1),
  version: z.number().int().nonnegative(),
  kind: z.enum(['full', 'lora']),
});
export type TrainerCheckpoint = z.infer<typeof trainerCheckpointSchema>;

/** Saving hashes every file it writes: minutes for a large model. */
const SAVE_TIMEOUT_MS = 30 * 60_000;

/**
 * Asks the trainer to save its current weights (`POST /weights/save`, to its own `--output-dir`
 * as `v<version>`). The path is on the trainer's filesystem: a sampler on another machine must
 * see it at the same path.
 *
 * @throws EngineError `policy-unavailable` when the trainer cannot be reached or does not save.
 */
export async function saveTrainerWeights(trainerUrl: string): Promise<TrainerCheckpoint> {
  const url = `${serverRoot(trainerUrl)}/weights/save`;
  const { status, body, text } = await requestJson(url, { method: 'POST', body: {} }, SAVE_TIMEOUT_MS);
  const parsed = trainerCheckpointSchema.safeParse(body);
  if (status !== 200 || !parsed.success) {
    throw new EngineError('policy-unavailable', `the trainer did not save its weights: HTTP ${status} from POST ${url}: ${text.slice(0, 300)}`);
  }
  return parsed.data;
}
