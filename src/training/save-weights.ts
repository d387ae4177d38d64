import { EngineError } from '../util/engine-error.js';
import { request, root } from './trainer-client.js';
import type { Checkpoint } from './training-journal.js';

/** Writing full weights and optimizer state of a real model takes minutes. */
const SAVE_TIMEOUT_MS = 30 * 60_000;

/**
 * Ask the trainer for a resumable checkpoint (`POST <url>/weights/save`; the trainer picks the
 * path, `<output-dir>/v<version>`). The trainer service restarts from it with `--resume <path>`.
 *
 * @throws EngineError `policy-unavailable` when the trainer cannot be reached or does not save.
 */
export async function saveWeights(url: string): Promise<Checkpoint> {
  const target = `${root(url)}/weights/save`;
  const { status, body, text } = await request(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, SAVE_TIMEOUT_MS);
  const answer = body as { path?: unknown; version?: unknown } | null;
  if (status !== 200 || typeof answer?.path !== 'string' || typeof answer.version !== 'number' || !Number.isInteger(answer.version)) {
    throw new EngineError('policy-unavailable', `the trainer did not save a checkpoint: HTTP ${status} from ${target}: ${text.slice(0, 500)}`);
  }
  return { path: answer.path, version: answer.version };
}
