import { EngineError } from '../../util/engine-error.js';
import type { Sandbox } from '../sandbox.js';

/**
 * `size` sandboxes of one template started ahead of demand. {@link take} hands out the oldest
 * start (ready, or still starting) and starts its replacement at once, so at most `size` sandboxes
 * wait here at any time and none is handed out twice or comes back: a pooled sandbox is always
 * fresh. A start that failed is not dropped or retried silently: the take that draws it rejects
 * with its error, and its replacement is the retry.
 */
export class WarmPool {
  /** Starts not yet handed out, oldest first. */
  private readonly waiting: Promise<Sandbox>[] = [];
  private closed = false;

  constructor(
    private readonly start: () => Promise<Sandbox>,
    private readonly size: number,
    /** Names the pool in errors, e.g. the template's repo and ref. */
    private readonly label: string,
  ) {
    this.refill();
  }

  /** The next pre-started sandbox (its start's error when that failed); starts a replacement. */
  take(): Promise<Sandbox> {
    const next = this.waiting.shift();
    if (this.closed || next === undefined) return Promise.reject(new EngineError('sandbox-failed', `the warm pool of ${this.label} is disposed`));
    this.refill();
    return next;
  }

  /**
   * Stop refilling and remove every sandbox still waiting, once its start has settled. Idempotent.
   * Every removal is tried; the first that failed is then thrown (a start that failed left nothing).
   */
  async dispose(): Promise<void> {
    this.closed = true;
    const left = this.waiting.splice(0);
    const removals = await Promise.allSettled(left.map((started) => started.then((sandbox) => sandbox.dispose(), () => undefined)));
    const failed = removals.find((removal) => removal.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  private refill(): void {
    while (!this.closed && this.waiting.length < this.size) {
      // Deferred, so a start that throws at once rejects like one that fails later.
      const started = Promise.resolve().then(this.start);
      // Nobody may await it before dispose: mark it handled; a take still sees the rejection.
      started.catch(() => undefined);
      this.waiting.push(started);
    }
  }
}
