import type { DiffHunk, FileDiff } from './diff-types.js';

/**
 * A file section with the context lines before the first and after the last change of every hunk
 * left out (header counts and starts follow). For a task statement read by a person or a model,
 * not for applying: in a code file that hosts doctests, the lines around an example can be the
 * code under test, and a statement that shows tests must not show that code.
 */
export function trimHunkContext(file: FileDiff): FileDiff {
  return { ...file, hunks: file.hunks.map(trimHunk) };
}

function trimHunk(hunk: DiffHunk): DiffHunk {
  const isChange = (line: string) => line.startsWith('+') || line.startsWith('-');
  const first = hunk.lines.findIndex(isChange);
  if (first < 0) return hunk;
  let last = hunk.lines.length - 1;
  while (last > first && !isChange(hunk.lines[last]!) && !hunk.lines[last]!.startsWith('\\')) last--;
  const lines = hunk.lines.slice(first, last + 1);
  const count = (mark: string) => lines.filter((line) => line.startsWith(mark) || line.startsWith(' ')).length;
  const oldLines = count('-');
  const newLines = count('+');
  // A side with no line starts one past the line it follows (the diff package's convention).
  return { ...hunk, lines, oldStart: hunk.oldStart + first, newStart: hunk.newStart + first, oldLines, newLines };
}
