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
    const ranges: LineRange[] = [];
    for (const hunk of file.hunks) {
      let line = hunk.oldStart;
      let run: [number, number] | null = null;
      const close = () => {
        if (run) ranges.push(run);
        run = null;
      };
      for (const text of hunk.lines) {
        const mark = text[0];
        if (mark === '-') {
          run = run ? [run[0], line] : [line, line];
          line += 1;
        } else if (mark === '+') {
          run ??= [Math.max(1, line - 1), line];
        } else if (mark === ' ') {
          close();
          line += 1;
        }
      }
      close();
    }
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
