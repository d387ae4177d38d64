export interface LruOptions<K, V> {
  /** Most entries kept; the least recently used one is evicted beyond it. */
  max: number;
  /** Called with each entry evicted to make room (not for delete() or clear()). */
  onEvict?: (key: K, value: V) => void;
}

/**
 * A least-recently-used cache on a Map (which keeps insertion order: the first key is the
 * least recently used). get() and set() make an entry the most recent; peek() and has() do not.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly max: number;
  private readonly onEvict: ((key: K, value: V) => void) | undefined;
  private hitCount = 0;
  private missCount = 0;

  constructor(options: LruOptions<K, V>) {
    if (!Number.isInteger(options.max) || options.max < 1) {
      throw new RangeError(`max must be a positive integer, got ${options.max}`);
    }
    this.max = options.max;
    this.onEvict = options.onEvict;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of the key, made the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) {
      this.missCount += 1;
      return undefined;
    }
    this.hitCount += 1;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value of the key without touching its recency. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Store the value as the most recently used, evicting the least recently used beyond `max`. */
  set(key: K, value: V): this {
    if (this.entries.has(key)) this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value as K;
      const evicted = this.entries.get(oldest) as V;
      this.entries.delete(oldest);
      this.onEvict?.(oldest, evicted);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** The cached value, or compute(key) stored and returned when the key is absent. */
  getOrSet(key: K, compute: (key: K) => V): V {
    if (this.entries.has(key)) return this.get(key) as V;
    const value = compute(key);
    this.set(key, value);
    return value;
  }

  /** Keys from the least to the most recently used. */
  keys(): K[] {
    return [...this.entries.keys()];
  }

  /** Hits, misses and the hit ratio of get() calls (0 when there were none). */
  stats(): { hits: number; misses: number; ratio: number } {
    const total = this.hitCount + this.missCount;
    return { hits: this.hitCount, misses: this.missCount, ratio: total === 0 ? 0 : this.hitCount / total };
  }
}
