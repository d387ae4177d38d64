import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EngineError } from '../util/engine-error.js';
import {
  trajectoryRecordSchema,
  type TrajectoryExit,
  type TrajectoryHeader,
  type TrajectoryRecord,
  type TrajectoryStep,
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
 * drops). Opening truncates: a retried episode rewrites its file.
 */
export class JsonlTrajectoryWriter implements TrajectorySink {
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
    try {
      await this.file.appendFile(`${JSON.stringify(record)}\n`);
      await this.file.sync();
    } catch (error) {
      throw new EngineError(diskCode(error), `cannot write trajectory ${this.path}: ${(error as Error).message}`, { cause: error });
    }
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

/** Read a trajectory file, tolerating a torn last line; any other bad line is an error. */
export async function readTrajectory(path: string): Promise<Trajectory> {
  const text = await readFile(path, 'utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const records: TrajectoryRecord[] = [];
  let truncated = false;
  for (const [i, line] of lines.entries()) {
    const last = i === lines.length - 1;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      if (last && !text.endsWith('\n')) {
        truncated = true;
        break;
      }
      throw new EngineError('artifact-invalid-input', `${path}:${i + 1}: not JSON: ${(error as Error).message}`);
    }
    const parsed = trajectoryRecordSchema.safeParse(json);
    if (!parsed.success) throw new EngineError('artifact-invalid-input', `${path}:${i + 1}: ${parsed.error.message}`);
    records.push(parsed.data);
  }
  const [header, ...rest] = records;
  if (header?.type !== 'header') throw new EngineError('artifact-invalid-input', `${path}: the first line is not a trajectory header`);
  const steps = rest.filter((r): r is TrajectoryStep => r.type === 'step');
  const exit = rest.find((r): r is TrajectoryExit => r.type === 'exit') ?? null;
  return { header, steps, exit, truncated };
}
