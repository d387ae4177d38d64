import { describe, expect, it } from 'vitest';
import { bucketCategories } from '../../../src/report/plots/bucket-categories.js';

const steps = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

describe('bucketCategories', () => {
  it.each([
    [0, 1, 0, undefined],
    [50, 1, 50, '50'],
    [51, 2, 26, '51'],
    [200, 4, 50, '197–200'],
    [201, 5, 41, '201'],
  ])('%i steps: groups of %i, %i groups, the last labelled %s', (n, size, count, last) => {
    const buckets = bucketCategories(steps(n));
    expect(buckets.size).toBe(size);
    expect(buckets.labels).toHaveLength(count);
    expect(buckets.labels.at(-1)).toBe(last);
    // Every step in exactly one group, in order.
    expect(buckets.groups.flat()).toEqual(Array.from({ length: n }, (_, i) => i));
  });
});
