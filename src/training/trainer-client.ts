import type { TrainingSample } from '../rl/training-sample.js';
import { EngineError } from '../util/engine-error.js';
import { requestJson, serverRoot } from './http-json.js';

/** What `POST /train/step` answers: the trainer's metrics and the version of its new weights. */
export interface TrainerStep {
  version: number;
  metrics: Record<string, unknown>;
}

/** A train step may take long on a real model; past this the trainer is taken for gone. */
const TRAIN_TIMEOUT_MS = 60 * 60_000;
const HEALTH_TIMEOUT_MS = 30_000;

/** The trainer's current weights version (`GET /health` → `policy_version`). */
export async function trainerVersion(url: string): Promise<number> {
  const { status, body, text } = await requestJson(`${serverRoot(url)}/health`, { method: 'GET' }, HEALTH_TIMEOUT_MS);
  const version = (body as { policy_version?: unknown } | null)?.policy_version;
  if (status !== 200 || typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    throw new EngineError('policy-unavailable', `the trainer's GET /health at ${url} gave HTTP ${status} without a policy_version: ${text.slice(0, 300)}`);
  }
  return version;
}

/**
 * One trainer step on a step's samples (`POST <url>/train/step` with `{samples, expected_version, config?}`;
 * `config` overrides the trainer's settings for this step, e.g. the estimator's loss normalisation).
 * The expected version makes a repeated step (a run killed after the trainer answered, then
 * resumed) detectable: the trainer answers 409 and is then one version ahead, which is taken as
 * that step already done rather than training twice on the same samples.
 *
 * @throws EngineError `policy-unavailable` when the trainer cannot be reached or refuses the step.
 */
export async function postTrainStep(
  url: string,
  samples: readonly TrainingSample[],
  expectedVersion: number,
  config?: Record<string, unknown>,
): Promise<TrainerStep> {
  const target = `${serverRoot(url)}/train/step`;
  const payload = { samples, expected_version: expectedVersion, ...(config ? { config } : {}) };
  const { status, body, text } = await requestJson(target, { method: 'POST', body: payload }, TRAIN_TIMEOUT_MS);
  if (status === 409) {
    const current = await trainerVersion(url);
    if (current === expectedVersion + 1) return { version: current, metrics: { alreadyApplied: true } };
  }
  const answer = body as { version?: unknown; metrics?: unknown } | null;
  if (status !== 200 || typeof answer?.version !== 'number' || !Number.isInteger(answer.version)) {
    throw new EngineError('policy-unavailable', `the trainer refused the step: HTTP ${status} from ${target}: ${text.slice(0, 500)}`);
  }
  const metrics = typeof answer.metrics === 'object' && answer.metrics !== null ? (answer.metrics as Record<string, unknown>) : {};
  return { version: answer.version, metrics };
}
