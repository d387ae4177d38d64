// @ts-check

/**
 * Split `items` into arrays of `size` items; the last one may be shorter.
 * @template T
 * @param {readonly T[]} items
 * @param {number} size
 * @returns {T[][]}
 */
export function chunk(items, size) {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`size must be a positive integer, got ${size}`);
  const chunks = [];
  for (let start = 0; start + size <= items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/**
 * The items whose key was not seen before, in order.
 * @template T
 * @param {readonly T[]} items
 * @param {(item: T) => unknown} key
 * @returns {T[]}
 */
export function uniqueBy(items, key) {
  const seen = new Set();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * A sorted copy of `items`; `items` itself is left as it was.
 * @template T
 * @param {readonly T[]} items
 * @param {(a: T, b: T) => number} compare
 * @returns {T[]}
 */
export function sortedCopy(items, compare) {
  return [...items].sort(compare);
}

/**
 * Items grouped by key, groups in order of first appearance.
 * @template T
 * @param {readonly T[]} items
 * @param {(item: T) => string} key
 * @returns {Map<string, T[]>}
 */
export function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * The last `count` items (all of them when there are fewer).
 * @template T
 * @param {readonly T[]} items
 * @param {number} count
 * @returns {T[]}
 */
export function lastN(items, count) {
  if (count <= 0) return [];
  return items.slice(Math.max(0, items.length - count));
}
