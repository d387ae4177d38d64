/** An engine in a {@link LoadHeap}: its load is `inUse / slots`; `order` breaks ties (first listed first). */
export interface HeapEngine {
  readonly slots: number;
  inUse: number;
  readonly order: number;
  /** Its index in the heap; -1 when not in it. */
  at: number;
}

/** Whether `a` is less loaded than `b` (cross-multiplied: no division, exact). */
function lighter(a: HeapEngine, b: HeapEngine): boolean {
  const left = a.inUse * b.slots;
  const right = b.inUse * a.slots;
  return left < right || (left === right && a.order < b.order);
}

/**
 * A binary min-heap of engines by load, each knowing its place in it, so that the least-loaded
 * engine is found in O(1) and a change of one engine's load is O(log n): a placement on a fleet of
 * thousands of hosts does not scan them all.
 */
export class LoadHeap {
  private readonly items: HeapEngine[] = [];

  get size(): number {
    return this.items.length;
  }

  /** The least-loaded engine, or undefined when empty. */
  peek(): HeapEngine | undefined {
    return this.items[0];
  }

  has(engine: HeapEngine): boolean {
    return engine.at !== -1;
  }

  insert(engine: HeapEngine): void {
    engine.at = this.items.length;
    this.items.push(engine);
    this.up(engine.at);
  }

  remove(engine: HeapEngine): void {
    const at = engine.at;
    const last = this.items.pop()!;
    engine.at = -1;
    if (last === engine) return;
    this.items[at] = last;
    last.at = at;
    this.up(at);
    this.down(last.at);
  }

  /** Restore the order after `engine`'s load changed. */
  update(engine: HeapEngine): void {
    this.up(engine.at);
    this.down(engine.at);
  }

  private swap(i: number, j: number): void {
    const a = this.items[i]!;
    const b = this.items[j]!;
    this.items[i] = b;
    this.items[j] = a;
    a.at = j;
    b.at = i;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!lighter(this.items[i]!, this.items[parent]!)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < this.items.length && lighter(this.items[left]!, this.items[best]!)) best = left;
      if (right < this.items.length && lighter(this.items[right]!, this.items[best]!)) best = right;
      if (best === i) return;
      this.swap(i, best);
      i = best;
    }
  }
}
