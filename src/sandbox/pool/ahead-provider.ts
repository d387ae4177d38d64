import PQueue from 'p-queue';
import { EngineError } from '../../util/engine-error.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox.js';
import { templateKey } from './template-key.js';

/**
 * A sandbox a caller has said it will ask for: {@link acquire} it once, or {@link release} it
 * when the demand went away (a cancelled run). Both are idempotent; after one, the other is a no-op
 * (acquire then rejects).
 */
export interface Reservation {
  acquire(): Promise<Sandbox>;
  release(): void;
}

interface Demand {
  template: SandboxTemplate;
  /** Reservations not yet acquired or released. */
  open: number;
  /** Starts made ahead and not yet handed out, oldest first. */
  ready: Promise<Sandbox>[];
}

/** Counts of what the provider started ahead (the bench and the tests read them). */
export interface AheadCounts {
  /** Sandboxes started ahead of their acquire. */
  started: number;
  /** Of them, handed to a reservation. */
  served: number;
  /** Of them, removed unused: their demand went away (a cancelled run) or the provider was disposed. */
  unused: number;
}

/**
 * Starts the sandboxes a caller has announced ({@link reserve}) before it asks for them, at most
 * `depth` at a time per template: a validation queues more runs than it has slots, and each run
 * then finds its sandbox started while the runs before it held the slots, instead of paying the
 * engine's create and start inside its slot. Unlike a warm pool (PooledProvider, `--warm`) it
 * starts only what was announced, so a validation whose runs all happen leaves nothing unused.
 * Every sandbox is still fresh and handed out once. A start that failed is the error of the
 * reservation that draws it. Plain {@link acquire} passes through.
 */
export class AheadProvider implements SandboxProvider {
  readonly backend: SandboxProvider['backend'];
  readonly counts: AheadCounts = { started: 0, served: 0, unused: 0 };
  private readonly demands = new Map<string, Demand>();
  /**
   * Starts in flight at once, at most `depth`, oldest first: the first runs' own sandboxes start
   * before the ones announced after them instead of sharing the engine with them.
   */
  private readonly starts: PQueue;
  /** Removals of unused starts still under way: {@link dispose} waits for them, so none outlives the command. */
  private readonly removals = new Set<Promise<void>>();
  private disposed = false;

  constructor(
    private readonly inner: SandboxProvider,
    /** Sandboxes started ahead and not yet handed out, at most, per template: the runs' slots. */
    private readonly depth: number,
  ) {
    if (!Number.isInteger(depth) || depth <= 0) throw new EngineError('internal', `AheadProvider: expected a positive depth, got ${depth}`);
    this.backend = inner.backend;
    this.starts = new PQueue({ concurrency: depth });
  }

  acquire(template: SandboxTemplate): Promise<Sandbox> {
    return this.inner.acquire(template);
  }

  /** Announce one acquire of `template` to come; a sandbox for it starts now when fewer than `depth` wait. */
  reserve(template: SandboxTemplate): Reservation {
    const key = templateKey(template);
    let demand = this.demands.get(key);
    if (demand === undefined) this.demands.set(key, (demand = { template, open: 0, ready: [] }));
    const held = demand;
    held.open += 1;
    this.fill(held);
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      held.open -= 1;
      return true;
    };
    return {
      acquire: () => {
        if (!settle()) return Promise.reject(new EngineError('internal', 'a sandbox reservation was used twice'));
        const next = held.ready.shift();
        if (next === undefined) return this.inner.acquire(template);
        this.counts.served += 1;
        this.fill(held);
        return next;
      },
      release: () => {
        if (settle()) this.trim(held);
      },
    };
  }

  /** Remove every sandbox started ahead and not handed out, then the inner provider's. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const left = [...this.demands.values()].flatMap((demand) => demand.ready.splice(0));
    for (const started of left) this.discard(started);
    await Promise.all([...this.removals]);
    await this.inner.dispose?.();
  }

  private fill(demand: Demand): void {
    while (!this.disposed && demand.ready.length < Math.min(this.depth, demand.open)) {
      const { template } = demand;
      // Through the queue, so a start that throws at once rejects like one that fails later.
      const started = this.starts.add(() => this.inner.acquire(template)) as Promise<Sandbox>;
      // Nobody may await it before it is drawn: mark it handled; the reservation drawing it still sees the rejection.
      started.catch(() => undefined);
      this.counts.started += 1;
      demand.ready.push(started);
    }
  }

  /** More started than still announced: the newest starts go (the oldest are the likeliest ready). */
  private trim(demand: Demand): void {
    while (demand.ready.length > demand.open) this.discard(demand.ready.pop()!);
  }

  /** Remove a start once it has settled (a failed one left nothing); best effort: the next run's sweep removes what a dead engine kept. */
  private discard(started: Promise<Sandbox>): void {
    this.counts.unused += 1;
    const removal = started.then((sandbox) => sandbox.dispose(), () => undefined).catch(() => undefined);
    this.removals.add(removal);
    void removal.finally(() => this.removals.delete(removal));
  }
}

/** A reservation from `provider` when it starts sandboxes ahead, else a plain acquire when asked. */
export function reserveSandbox(provider: SandboxProvider, template: SandboxTemplate): Reservation {
  if (provider instanceof AheadProvider) return provider.reserve(template);
  return { acquire: () => provider.acquire(template), release: () => undefined };
}
