import { createHash } from 'node:crypto';

/**
 * Memoises the two original runs per (image, commit, test_script, test_files, test_parser) so every
 * artifact with the same selection in one process (an `--artifact-list`, a self-play step) shares
 * them. The parser is part of the key because the cached value is a parsed status map.
 */
export class BaselineCache {
  private readonly entries = new Map<string, Promise<unknown>>();
  hits = 0;
  misses = 0;

  static key(parts: { image: string; commit: string; testScript: string; testFiles: string[]; testParser: string }): string {
    const hash = createHash('sha256');
    for (const part of [parts.image, parts.commit, parts.testScript, [...parts.testFiles].sort().join('\n'), parts.testParser]) {
      hash.update(`${Buffer.byteLength(part)}:`).update(part);
    }
    return hash.digest('hex');
  }

  getOrRun<T>(key: string, run: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key) as Promise<T> | undefined;
    if (cached) {
      this.hits += 1;
      return cached;
    }
    this.misses += 1;
    const promise = run();
    this.entries.set(key, promise);
    // A failed baseline (infrastructure) must not poison later artifacts.
    promise.catch(() => this.entries.delete(key));
    return promise;
  }

  /** Drop an entry whose runs turned out to be infrastructure errors. */
  forget(key: string): void {
    this.entries.delete(key);
  }
}
