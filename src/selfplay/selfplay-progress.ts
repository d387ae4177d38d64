import { progressDisplay, type ProgressDisplay } from '../util/progress-display.js';
import type { EpisodeProgress } from './selfplay-context.js';
import type { StepMetrics } from './step-metrics.js';

/** `1h02m`, `3m05s`, `42s`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/**
 * Progress of a run on stderr: the step, episodes done/total in it and an ETA for the whole run.
 * A terminal gets a bar; anything else (CI logs, pipes) one plain line per finished episode.
 * The ETA divides the wall time so far by the episodes this process ran (episodes found done
 * are not counted: they took no time here) and multiplies by the episodes still to come.
 */
export class SelfplayProgress implements EpisodeProgress {
  private readonly display: ProgressDisplay | null;
  private step = 0;
  private done = 0;
  private total = 0;
  private ran = 0;
  private readonly started = Date.now();

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly plan: { steps: number; perStep: number; label: string },
  ) {
    this.display = stream.isTTY ? progressDisplay(stream) : null;
  }

  startStep(step: number, planned: number): void {
    this.step = step;
    this.done = 0;
    this.total = planned;
    this.render(`step ${step} started: ${planned} episode(s)`);
  }

  planned(count: number): void {
    this.total += count;
  }

  finished(summary: string, ranHere = true): void {
    this.done += 1;
    if (ranHere) this.ran += 1;
    this.render(summary);
  }

  /** A step's finish (samples, train call) is done; it may come while a later step samples. */
  trained(metrics: StepMetrics): void {
    const pipeline = metrics.pipeline;
    const train = pipeline?.trainVersion == null ? 'no train call' : `trained at v${pipeline.trainVersion} in ${formatDuration(pipeline.trainingMs)} (${formatDuration(pipeline.overlapMs)} overlapped with sampling)`;
    this.render(`step ${metrics.step} done: ${metrics.samples.written} sample(s), ${metrics.samples.stale} stale dropped, ${train}`);
  }

  /** A line outside the bar (a stop message). */
  note(text: string): void {
    this.display?.stop();
    this.stream.write(`${text}\n`);
  }

  stop(): void {
    this.display?.stop();
  }

  private eta(): string {
    if (this.ran === 0) return 'ETA …';
    const remaining = this.total - this.done + (this.plan.steps - this.step) * this.plan.perStep;
    return `ETA ${formatDuration(((Date.now() - this.started) / this.ran) * Math.max(0, remaining))}`;
  }

  private render(message: string): void {
    const head = `step ${this.step}/${this.plan.steps} · ${this.done}/${this.total} episodes · ${this.eta()}`;
    if (this.display) {
      this.display.sink({ stage: `${this.plan.label} step ${this.step}/${this.plan.steps}`, message: `${this.done}/${this.total} episodes · ${this.eta()}`, fraction: this.total === 0 ? 0 : this.done / this.total });
    } else {
      this.stream.write(`[${this.plan.label}] ${head} · ${message}\n`);
    }
  }
}
