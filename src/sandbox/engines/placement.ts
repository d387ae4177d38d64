import { EngineError } from '../../util/engine-error.js';
import { LoadHeap, type HeapEngine } from './load-heap.js';

/** One engine as placement sees it: how many episodes it takes at once, how many it holds. */
export interface EngineLoad {
  readonly id: string;
  readonly slots: number;
  inUse: number;
  up: boolean;
}

interface Waiter {
  resolve: (id: string) => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * Placement of episodes on engines by capacity, backend-neutral (engines are ids with slots).
 * {@link place} takes a slot on the least-loaded engine that is up and has one free (load:
 * slots in use over slots); when none has, the caller waits its turn (first come, first
 * placed) until a slot is released or an engine comes back up. An engine marked down takes
 * nothing new; what it held is released by its holders as their episodes end.
 */
export class Placement {
  private readonly engines = new Map<string, EngineLoad & HeapEngine>();
  /** Engines that are up with a free slot, least loaded on top. */
  private readonly free = new LoadHeap();
  private readonly waiting: (Waiter | undefined)[] = [];
  private head = 0;
  private waitingCount = 0;

  constructor(engines: readonly { id: string; slots: number }[]) {
    for (const { id, slots } of engines) {
      if (!Number.isInteger(slots) || slots <= 0) throw new EngineError('usage', `engine ${id}: slots must be a positive integer, got ${slots}`);
      if (this.engines.has(id)) throw new EngineError('usage', `engine ${id} is listed twice`);
      const engine = { id, slots, inUse: 0, up: true, order: this.engines.size, at: -1 };
      this.engines.set(id, engine);
      this.free.insert(engine);
    }
    if (this.engines.size === 0) throw new EngineError('usage', 'placement needs at least one engine');
  }

  /** A slot on the least-loaded engine that is up; waits for one when all are full or down. */
  place(signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.waiting.length === this.head ? this.take() : undefined;
    if (id !== undefined) return Promise.resolve(id);
    return new Promise<string>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      if (signal) {
        const index = this.waiting.length;
        waiter.signal = signal;
        waiter.onAbort = () => {
          this.waiting[index] = undefined;
          this.waitingCount -= 1;
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiting.push(waiter);
      this.waitingCount += 1;
      // Waiters that gave up may be all that is queued ahead: serve this one now if a slot is free.
      this.serveWaiting();
    });
  }

  /** Give back a slot taken by {@link place}. */
  release(id: string): void {
    const engine = this.engine(id);
    if (engine.inUse === 0) throw new Error(`engine ${id}: released more slots than were placed`);
    engine.inUse -= 1;
    if (this.free.has(engine)) this.free.update(engine);
    else if (engine.up) this.free.insert(engine);
    this.serveWaiting();
  }

  /** Place nothing more on the engine until {@link markUp}. */
  markDown(id: string): void {
    const engine = this.engine(id);
    engine.up = false;
    if (this.free.has(engine)) this.free.remove(engine);
  }

  markUp(id: string): void {
    const engine = this.engine(id);
    engine.up = true;
    if (!this.free.has(engine) && engine.inUse < engine.slots) this.free.insert(engine);
    this.serveWaiting();
  }

  /** Every engine's slots, slots in use and state, in the order given. */
  loads(): readonly Readonly<EngineLoad>[] {
    return [...this.engines.values()].map(({ id, slots, inUse, up }) => ({ id, slots, inUse, up }));
  }

  /** Episodes waiting for a slot. */
  get queued(): number {
    return this.waitingCount;
  }

  private engine(id: string): EngineLoad & HeapEngine {
    const engine = this.engines.get(id);
    if (!engine) throw new Error(`engine ${id} is not placed on`);
    return engine;
  }

  /** Take a slot on the least-loaded engine with one free; undefined when none has. */
  private take(): string | undefined {
    const best = this.free.peek() as (EngineLoad & HeapEngine) | undefined;
    if (best === undefined) return undefined;
    best.inUse += 1;
    if (best.inUse >= best.slots) this.free.remove(best);
    else this.free.update(best);
    return best.id;
  }

  private serveWaiting(): void {
    while (this.head < this.waiting.length) {
      const waiter = this.waiting[this.head];
      if (waiter === undefined) {
        this.head++;
        continue;
      }
      const id = this.take();
      if (id === undefined) break;
      this.head++;
      this.waitingCount -= 1;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(id);
    }
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    }
  }
}
