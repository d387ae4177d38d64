/** Event names mapped to the arguments their listeners receive. */
export type EventMap = Record<string, unknown[]>;

type Listener<Args extends unknown[]> = (...args: Args) => void;

interface Entry<Args extends unknown[]> {
  listener: Listener<Args>;
  once: boolean;
}

/**
 * A small typed event emitter. Listeners run in the order they were added; a listener added or
 * removed while an event is being emitted takes effect from the next emit.
 */
export class Emitter<Events extends EventMap> {
  private readonly listeners = new Map<keyof Events, Array<Entry<any>>>();
  private readonly maxListeners: number;

  constructor(options: { maxListeners?: number } = {}) {
    this.maxListeners = options.maxListeners ?? Infinity;
  }

  /** Add a listener; returns a function that removes it. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    return this.add(event, listener, false);
  }

  /** Add a listener that is removed before its first call. */
  once<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    return this.add(event, listener, true);
  }

  /** Remove one registration of the listener (the earliest); false when it was not registered. */
  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): boolean {
    const entries = this.listeners.get(event);
    if (!entries) return false;
    const index = entries.findIndex((entry) => entry.listener === listener);
    if (index === -1) return false;
    entries.splice(index, 1);
    if (entries.length === 0) this.listeners.delete(event);
    return true;
  }

  /**
   * Call the event's listeners with the arguments; returns how many ran. An `error` event
   * with no listener throws its first argument, so errors are never silently dropped.
   */
  emit<K extends keyof Events>(event: K, ...args: Events[K]): number {
    const entries = this.listeners.get(event);
    if (!entries || entries.length === 0) {
      if (event === 'error') throw args[0] instanceof Error ? args[0] : new Error(`unhandled error event: ${String(args[0])}`);
      return 0;
    }
    // Iterate over a snapshot: once-listeners and listeners that remove themselves change the list.
    const snapshot = [...entries];
    for (const entry of snapshot) {
      if (entry.once) this.off(event, entry.listener);
      entry.listener.apply(this, args);
    }
    return snapshot.length;
  }

  /** How many listeners the event has. */
  listenerCount(event: keyof Events): number {
    return this.listeners.get(event)?.length ?? 0;
  }

  /** Remove every listener of the event, or of every event when none is named. */
  clear(event?: keyof Events): void {
    if (event === undefined) this.listeners.clear();
    else this.listeners.delete(event);
  }

  private add<K extends keyof Events>(event: K, listener: Listener<Events[K]>, once: boolean): () => void {
    const entries = this.listeners.get(event) ?? [];
    if (entries.length >= this.maxListeners) {
      throw new RangeError(`event "${String(event)}" already has ${this.maxListeners} listener(s), the maximum`);
    }
    entries.push({ listener, once });
    this.listeners.set(event, entries);
    return () => {
      this.off(event, listener);
    };
  }
}
