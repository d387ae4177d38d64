import { EngineError } from '../util/engine-error.js';
import type { Checkpoint, TrainingJournal } from './training-journal.js';

/**
 * The newest trainer version a run dir proves: its training journal's, and the versions its
 * steps' train calls answered (metrics.jsonl) since the last resume. Null for a new run.
 */
export function runLastVersion(journal: TrainingJournal, metrics: ReadonlyArray<{ step: number; trainer: Record<string, unknown> | null }>): number | null {
  const since = journal.lastResume()?.step ?? 0;
  const answered = metrics.filter((line) => line.step >= since).map((line) => line.trainer?.version).filter((v): v is number => typeof v === 'number');
  const journalled = journal.lastVersion();
  const all = journalled === null ? answered : [...answered, journalled];
  return all.length === 0 ? null : Math.max(...all);
}

export interface VersionCheck {
  url: string;
  /** What the trainer reports now. */
  trainerVersion: number;
  /** {@link runLastVersion}. */
  runVersion: number | null;
  checkpoint: Checkpoint | null;
  /** `ssr selfplay --resume`: continue from the last checkpoint. */
  resume: boolean;
}

const restartWith = (checkpoint: Checkpoint): string => `restart the trainer service with \`--resume ${checkpoint.path}\``;

/**
 * Refuse a trainer that is behind the run (restarted from an old checkpoint): training it on this
 * run's next samples would mix two histories. With `resume` the trainer must be exactly at the
 * run's last checkpoint, which the run then continues from.
 *
 * @throws EngineError `usage` saying what to restart the trainer with, or which flag to use.
 */
export function checkTrainerVersion(check: VersionCheck): void {
  const { url, trainerVersion: at, runVersion, checkpoint } = check;
  if (check.resume) {
    if (checkpoint === null) throw new EngineError('usage', '--resume continues from the run\'s last trainer checkpoint, and this run dir has none (write them with --save-every N)');
    if (at !== checkpoint.version) {
      throw new EngineError('usage', `--resume: the trainer at ${url} is at policy version ${at}, but the run's last checkpoint is version ${checkpoint.version}: ${restartWith(checkpoint)}, then run the same command again`);
    }
    return;
  }
  if (runVersion === null || at >= runVersion) return;
  const head = `the trainer at ${url} is at policy version ${at}, but this run already trained up to version ${runVersion}: it was restarted from an older checkpoint. Nothing was trained.`;
  const advice =
    checkpoint === null ? `This run wrote no checkpoint (--save-every N): restart the trainer at version ${runVersion}, or start a new run dir.`
    : checkpoint.version >= runVersion ? `To continue, ${restartWith(checkpoint)} and run the same command again.`
    : `To continue from the run's last checkpoint (version ${checkpoint.version}), ${restartWith(checkpoint)} and run the same command with --resume.`;
  throw new EngineError('usage', `${head} ${advice}`);
}
