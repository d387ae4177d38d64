const tails = new Map<string, Promise<unknown>>();

/**
 * Run `fn` after every earlier call for the same `key` (a file path) has settled. Appends that
 * first read the file (torn-tail repair, id checks) must not interleave within one process;
 * one run dir is written by one process (a second one is not supported).
 */
export async function withPathLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
