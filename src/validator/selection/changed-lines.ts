import { changeRuns } from '../../code/change-runs.js';
import type { ParsedDiff } from '../../code/diff-types.js';

/**
 * Where a diff changes one file, in the file's original (O) line numbers: `removed` are the lines
 * it deletes or rewrites; `gaps` are pure insertions, `g` meaning between O's lines `g` and `g + 1`.
 */
export interface ChangedLines {
  removed: number[];
  gaps: number[];
}

/** Per changed file, or why the diff cannot be read as line changes of existing files. */
export type ChangedLinesRead = { status: 'ok'; files: Map<string, ChangedLines> } | { status: 'unreadable'; reason: string };

/**
 * The O lines bug_inject.diff changes, per file. Only edits of files that exist in O can be looked
 * up in O's coverage: an added, deleted, renamed or binary file makes the diff unreadable here.
 */
export function changedLines(diff: ParsedDiff): ChangedLinesRead {
  const files = new Map<string, ChangedLines>();
  for (const file of diff.files) {
    const path = file.oldPath ?? file.newPath ?? '?';
    if (file.kind !== 'modified' || file.binary || file.oldPath === null) return { status: 'unreadable', reason: `bug_inject.diff ${file.binary ? 'changes the binary file' : `has a ${file.kind} file,`} ${path}` };
    const out: ChangedLines = { removed: [], gaps: [] };
    for (const run of changeRuns(file.hunks)) {
      // A run that adds before it removes first inserts between O's lines oldStart − 1 and oldStart.
      if (run.addsFirst) out.gaps.push(run.oldStart - 1);
      run.removed.forEach((_, i) => out.removed.push(run.oldStart + i));
    }
    files.set(path, out);
  }
  return { status: 'ok', files };
}
