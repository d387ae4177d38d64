import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TokenSample } from '../policy/policy.js';
import { EngineError, errorMessage } from '../util/engine-error.js';
import { restoreTokenSample, storeTokenSample } from './token-sample-delta.js';
import {
  TRAJECTORY_FORMAT,
  trajectoryLineSchema,
  type TrajectoryExit,
  type TrajectoryHeader,
  type TrajectoryLine,
  type TrajectoryRecord,
  type TrajectoryStep,
  type TrajectoryStepLine,
} from './trajectory-record.js';

/** Where the agent loop records an episode, one record at a time. */
export interface TrajectorySink {
  write(record: TrajectoryRecord): Promise<void>;
}

/** Keeps records in memory (tests, callers that store trajectories elsewhere). */
export class MemoryTrajectory implements TrajectorySink {
  readonly records: TrajectoryRecord[] = [];
  async write(record: TrajectoryRecord): Promise<void> {
    this.records.push(record);
  }
}

/**
 * A JSONL file written after every step: each line is appended and fsynced before the loop goes
 * on, so a crash leaves a valid prefix (at worst a torn last line, which {@link readTrajectory}
 * drops). Opening truncates: a retried episode rewrites its file. Lines are in format
 * {@link TRAJECTORY_FORMAT}: a step's token sample keeps only the prompt ids its turn added.
 */
export class JsonlTrajectoryWriter implements TrajectorySink {
  /** The full sample of the last step written: the next step's prompt is stored as a delta on it. */
  private previousSample: TokenSample | undefined;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
  ) {}

  static async open(path: string): Promise<JsonlTrajectoryWriter> {
    try {
      await mkdir(dirname(path), { recursive: true });
      return new JsonlTrajectoryWriter(path, await open(path, 'w'));
    } catch (error) {
      throw new EngineError(diskCode(error), `cannot open trajectory ${path}: ${(error as Error).message}`, { cause: error });
    }
  }

  async write(record: TrajectoryRecord): Promise<void> {
    if (record.type === 'header' && record.format !== TRAJECTORY_FORMAT) {
      throw new EngineError('internal', `trajectory ${this.path}: this writer writes format ${TRAJECTORY_FORMAT}, the header says ${record.format}`);
    }
    const line: TrajectoryLine =
      record.type === 'step' && record.sample ? { ...record, sample: storeTokenSample(record.sample, this.previousSample) } : record;
    try {
      await this.file.appendFile(`${JSON.stringify(line)}\n`);
      await this.file.sync();
    } catch (error) {
      throw new EngineError(diskCode(error), `cannot write trajectory ${this.path}: ${(error as Error).message}`, { cause: error });
    }
    if (record.type !== 'exit') this.previousSample = record.type === 'step' ? record.sample : undefined;
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}

function diskCode(error: unknown): 'disk-full' | 'internal' {
  return (error as NodeJS.ErrnoException).code === 'ENOSPC' ? 'disk-full' : 'internal';
}

/** A trajectory read back; `exit` is null when the episode never finished (crash, kill). */
export interface Trajectory {
  header: TrajectoryHeader;
  steps: TrajectoryStep[];
  exit: TrajectoryExit | null;
  /** The last line was torn (not valid JSON) and was dropped. */
  truncated: boolean;
}

/**
 * Read a trajectory file of any readable format, tolerating a torn last line; any other bad line is
 * an error. Steps come back with full token samples whatever the format stored.
 */
export async function readTrajectory(path: string): Promise<Trajectory> {
  const text = await readFile(path, 'utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const records: TrajectoryRecord[] = [];
  let previousSample: TokenSample | undefined;
  let truncated = false;
  for (const [i, raw] of lines.entries()) {
    const where = `${path}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      if (i === lines.length - 1 && !text.endsWith('\n')) {
        truncated = true;
        break;
      }
      throw new EngineError('artifact-invalid-input', `${where}: not JSON: ${(error as Error).message}`);
    }
    const parsed = trajectoryLineSchema.safeParse(json);
    if (!parsed.success) throw new EngineError('artifact-invalid-input', `${where}: ${parsed.error.message}`);
    const header = records[0];
    if (header?.type !== 'header') {
      if (parsed.data.type !== 'header') break; // reported below
      records.push(parsed.data);
    } else if (parsed.data.type === 'step') {
      const step = stepOf(parsed.data, previousSample, header.format, where);
      records.push(step);
      previousSample = step.sample;
    } else {
      if (parsed.data.type === 'header') previousSample = undefined; // as the writer: a header starts a new chain
      records.push(parsed.data);
    }
  }
  const [header, ...rest] = records;
  if (header?.type !== 'header') throw new EngineError('artifact-invalid-input', `${path}: the first line is not a trajectory header`);
  const steps = rest.filter((r): r is TrajectoryStep => r.type === 'step');
  const exit = rest.find((r): r is TrajectoryExit => r.type === 'exit') ?? null;
  return { header, steps, exit, truncated };
}

/** A step line as the step it records: its sample made full again, read the way the file's format stored it. */
function stepOf(line: TrajectoryStepLine, previous: TokenSample | undefined, format: TrajectoryHeader['format'], where: string): TrajectoryStep {
  const { sample, ...step } = line;
  if (sample === undefined) return step;
  const full = 'promptTokenIds' in sample;
  if (full !== (format === 1)) {
    const stores = format === 1 ? 'promptTokenIds' : 'promptPrefixTokens + promptTokenIdsAdded';
    throw new EngineError('artifact-invalid-input', `${where}: a format-${format} step sample stores ${stores}`);
  }
  try {
    return { ...step, sample: 'promptTokenIds' in sample ? sample : restoreTokenSample(sample, previous) };
  } catch (error) {
    throw new EngineError('artifact-invalid-input', `${where}: ${errorMessage(error)}`, { cause: error });
  }
}
