import { changeRuns } from '../../code/change-runs.js';
import { parseUnifiedDiff } from '../../code/unified-diff.js';

/** Inclusive 1-based line range of a file at the original commit O. */
export type LineRange = readonly [number, number];

/**
 * The code region a bug patch (bug_inject.diff, applied to O) changes: per file, the ranges of O's
 * lines it removes or rewrites; a pure insertion before line p counts as lines p−1..p (the lines
 * it sits between). Context lines are not part of the region: two bugs three lines apart whose
 * hunks share context do not change the same code. Pure.
 */
export function bugRegions(bugInject: string): Map<string, LineRange[]> {
  const regions = new Map<string, LineRange[]>();
  for (const file of parseUnifiedDiff(bugInject).files) {
    const path = file.oldPath ?? file.newPath!;
    const ranges = changeRuns(file.hunks).map(({ oldStart, removed, addsFirst }): LineRange => [
      // An insertion before line p sits between p − 1 and p; a rewrite spans the lines it removes.
      addsFirst ? Math.max(1, oldStart - 1) : oldStart,
      removed.length > 0 ? oldStart + removed.length - 1 : oldStart,
    ]);
    if (ranges.length > 0) regions.set(path, [...(regions.get(path) ?? []), ...ranges]);
  }
  return regions;
}

/** The first file and range where two regions meet (same path, intersecting lines), or null. Pure. */
export function regionsMeet(a: ReadonlyMap<string, readonly LineRange[]>, b: ReadonlyMap<string, readonly LineRange[]>): { file: string; lines: LineRange } | null {
  for (const [file, ranges] of a) {
    for (const [from, to] of ranges) {
      for (const [otherFrom, otherTo] of b.get(file) ?? []) {
        if (from <= otherTo && otherFrom <= to) return { file, lines: [Math.max(from, otherFrom), Math.min(to, otherTo)] };
      }
    }
  }
  return null;
}
