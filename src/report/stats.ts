/** Five-number summary plus mean of a sample; every field null for an empty one. */
export interface Summary {
  n: number;
  mean: number | null;
  min: number | null;
  q1: number | null;
  median: number | null;
  q3: number | null;
  max: number | null;
}

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Linear-interpolated quantile (numpy's default) of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

export function summarise(values: readonly number[]): Summary {
  if (values.length === 0) return { n: 0, mean: null, min: null, q1: null, median: null, q3: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: values.length,
    mean: mean(values),
    min: sorted[0]!,
    q1: quantile(sorted, 0.25),
    median: quantile(sorted, 0.5),
    q3: quantile(sorted, 0.75),
    max: sorted[sorted.length - 1]!,
  };
}

/**
 * Shannon entropy in bits of a count table: 0 when one kind takes everything (tunnel vision),
 * log2(k) when k kinds are used equally. Null when nothing was counted.
 */
export function entropyBits(counts: Readonly<Record<string, number>>): number | null {
  const values = Object.values(counts).filter((value) => value > 0);
  const total = values.reduce((sum, value) => sum + value, 0);
  if (total === 0) return null;
  // `+ 0` turns the -0 of a single kind into 0.
  return -values.reduce((sum, value) => sum + (value / total) * Math.log2(value / total), 0) + 0;
}

/** Sum of a count table. */
export function total(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((sum, value) => sum + value, 0);
}

/** Keys of count tables, most frequent over all of them first (ties by name): a stable legend order. */
export function keysByTotal(tables: ReadonlyArray<Readonly<Record<string, number>>>): string[] {
  const sums = new Map<string, number>();
  for (const table of tables) for (const [key, value] of Object.entries(table)) sums.set(key, (sums.get(key) ?? 0) + value);
  return [...sums.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([key]) => key);
}
