import { z } from 'zod';
import { writeJsonAtomic } from '../corpus/atomic-write.js';

/**
 * `<run>/heartbeat.json`: whether a long run is alive and how far it got, readable without parsing
 * the JSONL files. Rewritten atomically every `intervalMs` and at each step start and finish; a
 * `running` heartbeat whose `time` is old (or whose pid is gone) means the process died.
 */
export const heartbeatSchema = z.object({
  status: z.enum(['running', 'completed', 'stopped', 'failed']),
  /** When this heartbeat was written (ISO). */
  time: z.string(),
  /** When the process writing the run started (ISO). */
  startedAt: z.string(),
  pid: z.number().int(),
  /** The latest step that started sampling in this process (0: none yet). */
  step: z.number().int().nonnegative(),
  /** Steps with a metrics line (earlier processes' included). */
  stepsDone: z.number().int().nonnegative(),
  /** Episodes recorded as completed (order 2 included; discarded ones not). */
  episodesDone: z.number().int().nonnegative(),
  /** The steps this run was asked for. */
  steps: z.number().int().nonnegative(),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;

/** What a heartbeat reports, read fresh at each beat. */
export type HeartbeatProbe = () => Pick<Heartbeat, 'step' | 'stepsDone' | 'episodesDone'>;

/** Default beat period: often enough to tell a dead run within a minute, cheap on any disk. */
export const HEARTBEAT_INTERVAL_MS = 30_000;

/** Writes heartbeat.json on a timer until {@link HeartbeatWriter.stop}. */
export class HeartbeatWriter {
  private readonly timer: NodeJS.Timeout;
  private readonly startedAt = new Date().toISOString();
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly steps: number,
    private readonly probe: HeartbeatProbe,
    intervalMs = HEARTBEAT_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => void this.beat(), intervalMs);
    // A heartbeat must never keep a finished process alive.
    this.timer.unref();
  }

  /** Write the current state now (writes are serialised: the last one wins on disk). */
  beat(status: Heartbeat['status'] = 'running'): Promise<void> {
    const heartbeat: Heartbeat = { status, time: new Date().toISOString(), startedAt: this.startedAt, pid: process.pid, steps: this.steps, ...this.probe() };
    // A failed write (disk full) must not end the run: the next beat tries again.
    this.writing = this.writing.then(() => writeJsonAtomic(this.path, heartbeat)).catch(() => undefined);
    return this.writing;
  }

  /** Stop the timer and write the final status. */
  stop(status: Exclude<Heartbeat['status'], 'running'>): Promise<void> {
    clearInterval(this.timer);
    return this.beat(status);
  }
}
