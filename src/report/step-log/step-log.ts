import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { StepMetrics } from '../../selfplay/step-metrics.js';
import { EngineError } from '../../util/engine-error.js';
import { packagePath } from '../../util/package-root.js';
import { stepScalars } from './step-scalars.js';

/** `--log-to`: where per-step scalars go besides metrics.jsonl. */
export const LOG_TARGETS = ['tensorboard', 'wandb'] as const;
export type LogTarget = (typeof LOG_TARGETS)[number];

export interface StepLogOptions {
  targets: readonly LogTarget[];
  /** Where the sink writes (tensorboard/, wandb/): the run dir's `logs/`. */
  dir: string;
  /** The run dir: names the W&B run id, so a resumed run appends to the same W&B run. */
  runDir: string;
  /** The run's name in TensorBoard and W&B. */
  name: string;
  /** Recorded as the W&B run's config (the resolved settings of run.json). */
  config: Record<string, unknown>;
  /** The interpreter with tensorboardX / wandb (default: $SSR_PYTHON, else python3). */
  python?: string;
  /** Where a sink that dies mid-run is reported (once); the run goes on without it. */
  warn: (line: string) => void;
  /** How long the sink may take to import its libraries and open its writers. */
  readyTimeoutMs?: number;
}

type SinkProcess = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * The per-step scalars of a run ({@link stepScalars}) streamed to `trainer/ssr_trainer/log_sink.py`,
 * which writes them with tensorboardX and wandb (offline unless WANDB_MODE says otherwise): Node has
 * no maintained TensorBoard writer, and the event file format is not ours to hand-write.
 */
export class StepLog {
  private failed = false;
  /** Until the sink is ready, its death is open()'s error, not a warning. */
  private opened = false;
  private readonly exited: Promise<number | null>;
  private stderrTail = '';

  private constructor(
    private readonly child: SinkProcess,
    private readonly warn: (line: string) => void,
  ) {
    this.exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
    child.stderr.on('data', (chunk: Buffer) => void (this.stderrTail = (this.stderrTail + chunk.toString()).slice(-2000)));
    child.stdin.on('error', () => this.fail('its stdin closed'));
    void this.exited.then((code) => {
      if (code !== 0) this.fail(`exited with ${code}`);
    });
  }

  /**
   * Start the sink and wait until every target's library is imported and its writer open.
   * @throws EngineError `usage` naming the missing package and the pip command, or why the
   *   interpreter could not start.
   */
  static async open(options: StepLogOptions): Promise<StepLog> {
    const { dir } = options;
    await mkdir(dir, { recursive: true });
    const configFile = join(dir, '.wandb-config.json');
    await writeFile(configFile, JSON.stringify(options.config));
    const python = options.python ?? process.env.SSR_PYTHON ?? 'python3';
    const trainer = packagePath('trainer');
    const args = ['-m', 'ssr_trainer.log_sink', ...options.targets.flatMap((target) => ['--to', target])];
    args.push('--dir', dir, '--name', options.name, '--run-id', runId(options.runDir), '--config-json', configFile);
    const env = { ...process.env, PYTHONPATH: [trainer, process.env.PYTHONPATH].filter(Boolean).join(':'), PYTHONUNBUFFERED: '1' };
    const child = spawn(python, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const log = new StepLog(child, options.warn);
    await log.ready(python, options.targets, options.readyTimeoutMs ?? 120_000);
    return log;
  }

  private ready(python: string, targets: readonly LogTarget[], timeoutMs: number): Promise<void> {
    const what = `--log-to ${targets.join(',')}`;
    return new Promise((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new EngineError('usage', `${what}: ${python} -m ssr_trainer.log_sink did not open its writers in ${timeoutMs / 1000} s: ${this.stderrTail.trim()}`));
      }, timeoutMs);
      this.child.once('error', (error) => {
        clearTimeout(timer);
        reject(new EngineError('usage', `${what}: cannot start ${python} (${error.message}): install Python 3 or set SSR_PYTHON to an interpreter with the packages`));
      });
      this.child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (!stdout.includes('"ready": true')) return;
        clearTimeout(timer);
        this.opened = true;
        resolve();
      });
      void this.exited.then(async (code) => {
        clearTimeout(timer);
        // 'close' comes after stderr's last data: the tail says why.
        reject(new EngineError('usage', `${what}: the log sink (${python}) exited with ${code}: ${this.stderrTail.trim().split('\n').at(-1) ?? ''}`));
      });
    });
  }

  private fail(why: string): void {
    if (this.failed || !this.opened) return;
    this.failed = true;
    this.warn(`--log-to: the log sink ${why}; later steps are not logged to it (metrics.jsonl has them): ${this.stderrTail.trim().split('\n').at(-1) ?? ''}`);
  }

  /** Send one step's scalars (fire and forget: a dead sink was reported once and is skipped). */
  log(metrics: StepMetrics): void {
    if (this.failed) return;
    this.child.stdin.write(`${JSON.stringify({ step: metrics.step, scalars: stepScalars(metrics) })}\n`);
  }

  /** Flush and close every writer (the sink exits at the end of its input). */
  async close(): Promise<void> {
    this.child.stdin.end();
    await this.exited;
  }
}

/** One W&B run id per run dir, so a resumed run appends to the same W&B run. */
function runId(runDir: string): string {
  return createHash('sha256').update(runDir).digest('hex').slice(0, 16);
}
