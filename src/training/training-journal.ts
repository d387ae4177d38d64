import { z } from 'zod';
import { appendJsonl, readJsonl } from '../corpus/jsonl-file.js';
import { runPaths } from '../corpus/run-layout.js';

const version = z.number().int().nonnegative();
const step = z.number().int().positive();

/** A trainer checkpoint (`POST /weights/save`): where it is and the version of its weights. */
export const checkpointSchema = z.object({ path: z.string().min(1), version });
export type Checkpoint = z.infer<typeof checkpointSchema>;

/**
 * One line of `<run>/training.jsonl`. `train` is written before the step's `/train/step` is sent:
 * a resumed run posts the same step at the same expected version, so a step the trainer already
 * applied is answered 409 and not trained twice. `checkpoint` after a `--save-every` save.
 * `resume` when `ssr selfplay --resume` continued from a checkpoint: the steps from `step` on
 * train from `version` again, and the episodes already recorded for them (`pending`) were partly
 * sampled by weights that were lost with the trainer.
 */
export const trainingLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('train'), step, expectedVersion: version, samples: z.number().int().nonnegative(), at: z.string() }),
  z.object({ type: z.literal('checkpoint'), step, ...checkpointSchema.shape, at: z.string() }),
  z.object({ type: z.literal('resume'), step, ...checkpointSchema.shape, pending: z.array(z.string()), at: z.string() }),
]);
export type TrainingLine = z.infer<typeof trainingLineSchema>;
type Line<T extends TrainingLine['type']> = Extract<TrainingLine, { type: T }>;

/** The last element that passes `test` (Array#findLast is past this project's ES2022 lib). */
function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return items[i];
  return undefined;
}

/**
 * The run dir's training history, read once and appended to as the run goes. Everything it
 * answers is about the history since the last resume: what came before it was trained into
 * weights that no longer exist.
 */
export class TrainingJournal {
  private constructor(
    private readonly path: string,
    private readonly lines: TrainingLine[],
  ) {}

  static async open(runDir: string): Promise<TrainingJournal> {
    const path = runPaths(runDir).training;
    return new TrainingJournal(path, (await readJsonl(path, trainingLineSchema)).records);
  }

  async append(line: TrainingLine): Promise<void> {
    await appendJsonl(this.path, [line]);
    this.lines.push(line);
  }

  /** The last resume, or null when the run never resumed from a checkpoint. */
  lastResume(): Line<'resume'> | null {
    return (findLast(this.lines, (line) => line.type === 'resume') as Line<'resume'> | undefined) ?? null;
  }

  private current(): TrainingLine[] {
    const resume = this.lastResume();
    return resume === null ? this.lines : this.lines.slice(this.lines.lastIndexOf(resume));
  }

  /** The train call recorded for a step (since the last resume), if any. */
  trainOf(stepNumber: number): Line<'train'> | null {
    return (findLast(this.current(), (line) => line.type === 'train' && line.step === stepNumber) as Line<'train'> | undefined) ?? null;
  }

  /** The latest checkpoint (a resume's counts: it is where the history restarted). */
  lastCheckpoint(): Checkpoint | null {
    const line = findLast(this.lines, (entry) => entry.type !== 'train') as Line<'checkpoint' | 'resume'> | undefined;
    return line ? { path: line.path, version: line.version } : null;
  }

  /**
   * The newest trainer version this run has seen (since the last resume): a train call sent at
   * version v proves the trainer was at v; a checkpoint or resume at v likewise. Null: none yet.
   */
  lastVersion(): number | null {
    const versions = this.current().map((line) => (line.type === 'train' ? line.expectedVersion : line.version));
    return versions.length === 0 ? null : Math.max(...versions);
  }
}
