/** Above this many categories (steps), per-step bars and boxes are drawn per group of steps. */
export const MAX_CATEGORIES = 50;

export interface Buckets {
  /** Categories per group (1: no grouping). */
  size: number;
  /** One label per group: `first–last` of the categories it holds. */
  labels: string[];
  /** The category indices of each group, in order. */
  groups: number[][];
}

/**
 * Consecutive categories grouped so that at most `max` remain: a 200-step run gets 50 groups of 4
 * steps. Bars a pixel wide and boxes drawn over each other are unreadable past ~50 per plot, and a
 * group's pooled values still show every value's spread.
 */
export function bucketCategories(categories: readonly string[], max = MAX_CATEGORIES): Buckets {
  const size = Math.max(1, Math.ceil(categories.length / max));
  const groups: number[][] = [];
  for (let start = 0; start < categories.length; start += size) {
    groups.push(Array.from({ length: Math.min(size, categories.length - start) }, (_, offset) => start + offset));
  }
  const labels = groups.map((group) => (group.length === 1 ? categories[group[0]!]! : `${categories[group[0]!]}–${categories[group.at(-1)!]}`));
  return { size, labels, groups };
}

/** The x-axis label of a grouped plot. */
export function groupedLabel(xLabel: string, buckets: Buckets): string {
  return buckets.size === 1 ? xLabel : `${xLabel} (groups of ${buckets.size})`;
}
