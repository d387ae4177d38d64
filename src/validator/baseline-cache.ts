import { createHash } from 'node:crypto';

/**
 * Memoises test runs (and O's file list) by content: a run is keyed by what it depends on (image,
 * commit, test_script, test_parser, time limit) and the content id of the tree it runs on (see
 * state-tree.ts), so every artifact validated in one process (an `--artifact-list`, the bugs of a
 * self-play run) shares the original runs, and any state whose tree another state already ran.
 * The parser is part of the key because the cached value is a parsed status map.
 */
export class BaselineCache {
  private readonly entries = new Map<string, Promise<unknown>>();
  hits = 0;
  misses = 0;

  /** A collision-free key over the parts, each length-prefixed. */
  static key(parts: readonly string[]): string {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(`${Buffer.byteLength(part)}:`).update(part);
    return hash.digest('hex');
  }

  /**
   * The entry under `key`, or `run()` stored there. An entry that rejects, or whose value `keep`
   * refuses (an infrastructure error, a cancelled run), is dropped once it settles: it must not be
   * served to a later artifact.
   */
  getOrRun<T>(key: string, run: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    const cached = this.entries.get(key) as Promise<T> | undefined;
    if (cached) {
      this.hits += 1;
      return cached;
    }
    this.misses += 1;
    const promise = run();
    this.entries.set(key, promise);
    const drop = (): void => {
      if (this.entries.get(key) === promise) this.entries.delete(key);
    };
    promise.then((value) => (keep(value) ? undefined : drop()), drop);
    return promise;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Store a value known without running anything (O's file list, read in an original run's sandbox). */
  offer<T>(key: string, value: T): void {
    if (!this.entries.has(key)) this.entries.set(key, Promise.resolve(value));
  }
}
