import { applyHunks } from './apply-hunks.js';
import { hunkChangeRuns } from './change-runs.js';
import type { DiffHunk, FileDiff } from './diff-types.js';
import { doctestBlankLines, doctestExampleLines } from './python/doctest-examples.js';

/**
 * What one hunk changes: only doctest example lines (`examples`: test code, like a test file),
 * none (`code`), or both (`mixed`, which counts as code). Context lines do not count.
 */
export type HunkKind = 'code' | 'examples' | 'mixed';

/** Lines of one side of a file: its doctest example lines, and blank lines inside docstrings with examples (neutral). */
export interface ExampleLines {
  examples: ReadonlySet<number>;
  neutral: ReadonlySet<number>;
}

/**
 * Classify a hunk by the lines it removes (looked up in `before`, the lines of the file before
 * it) and adds (in `after`). Neutral lines count for neither side. A hunk that changes no
 * example line is code.
 */
export function classifyHunk(hunk: DiffHunk, before: ExampleLines, after: ExampleLines): HunkKind {
  let examples = 0;
  let code = 0;
  const count = (side: ExampleLines, line: number) => {
    if (side.examples.has(line)) examples++;
    else if (!side.neutral.has(line)) code++;
  };
  for (const run of hunkChangeRuns(hunk)) {
    run.removed.forEach((_, i) => count(before, run.oldStart + i));
    run.added.forEach((_, i) => count(after, run.newStart + i));
  }
  if (examples === 0) return 'code';
  return code === 0 ? 'examples' : 'mixed';
}

/** Whether a path can hold doctest examples whose edits are test edits: a Python source file. */
export function mayHoldDoctests(path: string | null): boolean {
  return path !== null && /\.py$/i.test(path);
}

/**
 * The kind of every hunk of one file section, given the file's text before the section applies;
 * null when the section does not apply to that text. A file that is not Python, or an added or
 * deleted one, is code throughout (a new or deleted module is never only examples).
 */
export function classifyFileHunks(file: FileDiff, before: string): HunkKind[] | null {
  if (file.kind !== 'modified' || !mayHoldDoctests(file.newPath)) return file.hunks.map(() => 'code');
  const after = applyHunks(before, file.hunks);
  if (after === false) return null;
  const lines = (text: string): ExampleLines => ({ examples: doctestExampleLines(text), neutral: doctestBlankLines(text) });
  const [old, updated] = [lines(before), lines(after)];
  return file.hunks.map((hunk) => classifyHunk(hunk, old, updated));
}
