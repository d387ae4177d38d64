// @ts-check

/**
 * Map `items` through the async `fn`, at most `limit` at a time; results keep the input order.
 * @template T, R
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T, index: number) => Promise<R>} fn
 * @returns {Promise<R[]>}
 */
export async function mapLimit(items, limit, fn) {
  if (limit < 1) throw new RangeError(`limit must be at least 1, got ${limit}`);
  /** @type {R[]} */
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await fn(items[index], index);
    }
  }
  const workers = [];
  for (let i = 0; i < Math.min(limit, items.length); i += 1) workers.push(worker());
  await Promise.all(workers);
  return results;
}

/**
 * Call the async `fn` until it resolves, at most `attempts` times; the last error is thrown.
 * @template R
 * @param {() => Promise<R>} fn
 * @param {number} attempts
 * @returns {Promise<R>}
 */
export async function retry(fn, attempts) {
  let lastError;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      return await fn();
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
