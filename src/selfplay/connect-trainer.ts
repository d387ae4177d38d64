import { readJsonl } from '../corpus/jsonl-file.js';
import type { RunStore } from '../corpus/run-store.js';
import { runTag } from '../training/run-tag.js';
import { trainerVersion } from '../training/trainer-client.js';
import { TrainingJournal, type Checkpoint } from '../training/training-journal.js';
import { checkTrainerVersion, runLastVersion } from '../training/version-guard.js';
import type { RunTrainer } from './selfplay-context.js';
import { stepMetricsSchema } from './step-metrics.js';

export interface ConnectInput {
  url: string;
  store: RunStore;
  /** `ssr selfplay --resume`: the trainer was restarted from the run's last checkpoint. */
  resume: boolean;
  /** The first step without a metrics line: where a resume restarts the history. */
  firstUndoneStep: number;
  /** See SelfplayRunInput.onResume. */
  onResume?: (checkpoint: Checkpoint) => Promise<void>;
}

/**
 * The trainer at the start of a run: its version checked against the run dir's history (a
 * trainer behind it stops the run before anything trains), and with `resume` the history
 * restarted at the last checkpoint — the sampler re-synced through `onResume` first, then the
 * resume recorded with the episodes already sampled for the steps it restarts.
 *
 * @throws EngineError `usage` (see checkTrainerVersion) or `policy-unavailable`.
 */
export async function connectTrainer(input: ConnectInput): Promise<RunTrainer> {
  const { url, store } = input;
  const journal = await TrainingJournal.open(store.paths.root);
  const version = await trainerVersion(url);
  const metrics = (await readJsonl(store.paths.metrics, stepMetricsSchema)).records;
  const checkpoint = journal.lastCheckpoint();
  checkTrainerVersion({ url, trainerVersion: version, runVersion: runLastVersion(journal, metrics), checkpoint, resume: input.resume });
  if (input.resume && checkpoint !== null) {
    await input.onResume?.(checkpoint);
    const pending = store.episodes().filter((record) => record.step >= input.firstUndoneStep).map((record) => record.id);
    await journal.append({ type: 'resume', step: input.firstUndoneStep, ...checkpoint, pending, at: new Date().toISOString() });
  }
  return { url, journal, version, runTag: await runTag(store.paths.root) };
}
