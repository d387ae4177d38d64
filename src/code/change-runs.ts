import type { DiffHunk } from './diff-types.js';

/**
 * One run of consecutive changed lines (`-`/`+`, no context between them) in a hunk, placed in
 * both sides' 1-based line numbers. The removed lines are old lines `oldStart ..
 * oldStart + removed.length - 1`; the added ones new lines `newStart .. newStart + added.length - 1`.
 */
export interface ChangeRun {
  /** The old line of the first removed line; for a run that removes nothing, the old line it inserts before (one past the line it follows). */
  oldStart: number;
  /** The new line of the first added line; for a run that adds nothing, the new line the removal leaves its gap before. */
  newStart: number;
  /** Text of the removed lines, `-` dropped. */
  removed: string[];
  /** Text of the added lines, `+` dropped. */
  added: string[];
  /** The run's first line adds (`+` before any `-`): it inserts before old line `oldStart` before it rewrites anything. */
  addsFirst: boolean;
  /** The `\ No newline at end of file` line after the last removed line, when the old file ends there without one. */
  removedMarker?: string;
  /** The `\ No newline at end of file` line after the last added line, when the new file ends there without one. */
  addedMarker?: string;
}

/**
 * The runs of changed lines of one hunk, in order, context lines dropped. A hunk of an added file
 * (`@@ -0,0 +1,n @@`) is one run at old line 1; one of a deleted file, one run at new line 1.
 * A `\` marker after a context line (both sides end without a newline) belongs to no run. Pure.
 */
export function hunkChangeRuns(hunk: DiffHunk): ChangeRun[] {
  const runs: ChangeRun[] = [];
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  let run: ChangeRun | null = null;
  let last: '-' | '+' | null = null;
  for (const line of hunk.lines) {
    const op = line[0];
    if (op === '\\') {
      if (run && last === '-') run.removedMarker = line;
      else if (run && last === '+') run.addedMarker = line;
      continue;
    }
    if (op === '-' || op === '+') {
      run ??= { oldStart: oldLine, newStart: newLine, removed: [], added: [], addsFirst: op === '+' };
      if (op === '-') {
        run.removed.push(line.slice(1));
        oldLine++;
      } else {
        run.added.push(line.slice(1));
        newLine++;
      }
      last = op;
      continue;
    }
    // A context line (parse-hunk.ts stores a blank one as ' ') ends the run.
    if (run) runs.push(run);
    run = null;
    last = null;
    oldLine++;
    newLine++;
  }
  if (run) runs.push(run);
  return runs;
}

/** The runs of changed lines of all of a file section's hunks, in order. Pure. */
export function changeRuns(hunks: readonly DiffHunk[]): ChangeRun[] {
  return hunks.flatMap(hunkChangeRuns);
}
