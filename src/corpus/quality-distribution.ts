import type { BugQuality } from '../validator/bug-quality.js';

/** Upper bounds of the breadth buckets (the last bucket is open). */
const TEST_BUCKETS = [1, 3, 10, 40] as const;
const FILE_BUCKETS = [1, 2, 5] as const;

/**
 * How the valid bugs of a run spread (issue 14): by breadth (failing tests, test files, in
 * buckets such as `2-3` or `>40`), by kind, and by how the weakening hid them. The `--json`
 * summary's `bugQuality` and the report's "Bug quality" section are this object.
 */
export interface QualityDistribution {
  /** Valid bugs with a quality record (bug dirs written before it existed are left out). */
  bugs: number;
  failingTests: Record<string, number>;
  failingFiles: Record<string, number>;
  kinds: Record<string, number>;
  weakening: Record<string, number>;
}

/** The distribution over these bugs' quality records. */
export function qualityDistribution(qualities: readonly BugQuality[]): QualityDistribution {
  const out: QualityDistribution = { bugs: qualities.length, failingTests: {}, failingFiles: {}, kinds: {}, weakening: {} };
  for (const quality of qualities) {
    if (quality.breadth) {
      bump(out.failingTests, bucket(quality.breadth.failingTests, TEST_BUCKETS));
      bump(out.failingFiles, bucket(quality.breadth.files, FILE_BUCKETS));
    }
    bump(out.kinds, quality.kind);
    bump(out.weakening, quality.weakening);
  }
  return out;
}

/** `1`, `2-3`, `4-10`, … `>40`: the bucket of `n` for ascending upper bounds. */
export function bucket(n: number, bounds: readonly number[]): string {
  let low = 1;
  for (const high of bounds) {
    if (n <= high) return low === high ? String(high) : `${low}-${high}`;
    low = high + 1;
  }
  return `>${bounds.at(-1)}`;
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
