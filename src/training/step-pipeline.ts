/**
 * The asynchronous step loop's bookkeeping: each step's finish (samples, train call, metrics)
 * runs after the previous step's, in the background, while later steps sample. With `maxStaleness`
 * K, step s may start sampling once step s−1−K has finished training: at most K train calls are
 * behind the episodes being sampled, so a sample is at most K versions old when it is trained
 * (K = 0: the synchronous loop).
 */
export class StepPipeline {
  private tail: Promise<void> = Promise.resolve();
  private readonly finishes = new Map<number, Promise<void>>();
  private failure: { error: unknown } | null = null;

  /** @param onFailure told once, when a finish fails (the run stops sampling). */
  constructor(
    private readonly maxStaleness: number,
    private readonly onFailure: (error: unknown) => void = () => {},
  ) {}

  /** Resolves when `step` may sample. @throws what a finish threw. */
  async gate(step: number): Promise<void> {
    // Finishes run in order, so the latest one at or before the bound is the one to wait for.
    const bound = step - 1 - this.maxStaleness;
    const before = [...this.finishes.keys()].filter((enqueued) => enqueued <= bound);
    if (before.length > 0) await this.finishes.get(Math.max(...before));
    this.rethrow();
  }

  /** Run `finish` after every finish enqueued before it. */
  enqueue(step: number, finish: () => Promise<void>): void {
    const done = this.tail.then(finish);
    done.catch((error: unknown) => {
      if (this.failure !== null) return;
      this.failure = { error };
      this.onFailure(error);
    });
    this.finishes.set(step, done);
    this.tail = done;
  }

  /** Wait for every enqueued finish. @throws what a finish threw. */
  async drain(): Promise<void> {
    await this.tail.catch(() => {});
    this.rethrow();
  }

  private rethrow(): void {
    if (this.failure !== null) throw this.failure.error;
  }
}
