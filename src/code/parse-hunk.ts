import { DiffParseError, quoteLine } from './diff-parse-error.js';
import type { DiffHunk } from './diff-types.js';

/** `@@ -oldStart[,oldLines] +newStart[,newLines] @@[heading]`; no `$` so a CRLF diff's `\r` stays out of the numbers. */
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)/;

export function isHunkHeader(line: string): boolean {
  return line.startsWith('@@');
}

/**
 * Parse the hunk whose header is `lines[start]`, reading no further than `end`. The body must
 * hold exactly the old and new line counts of the header; an omitted count means 1, as in GNU
 * diff. A blank line counts as an empty context line (some editors strip the lone space; git
 * apply accepts it too) and is stored as `' '`.
 *
 * @returns the hunk and the index of the first line after it.
 * @throws DiffParseError when the header is malformed or the body does not match it.
 */
export function parseHunk(lines: readonly string[], start: number, end: number): { hunk: DiffHunk; next: number } {
  const header = lines[start] ?? '';
  const match = HUNK_HEADER.exec(header);
  if (!match) {
    throw new DiffParseError(`malformed hunk header ${quoteLine(header)}; expected "@@ -start,count +start,count @@"`, start + 1);
  }
  const oldLines = match[2] === undefined ? 1 : Number(match[2]);
  const newLines = match[4] === undefined ? 1 : Number(match[4]);
  // Only for error messages; a function so the happy path does not pay for it.
  const shown = (): string => quoteLine(header.replace(/ @@.*/, ' @@'));
  let oldLeft = oldLines;
  let newLeft = newLines;
  let afterLine = false;
  const body: string[] = [];
  let j = start + 1;
  for (; j < end; j++) {
    const line = lines[j]!;
    const op = line === '' ? ' ' : line[0];
    if (op === '\\') {
      if (!afterLine) throw new DiffParseError(`${quoteLine(line)} does not follow a diff line`, j + 1);
      body.push(line);
      afterLine = false;
      continue;
    }
    if (oldLeft === 0 && newLeft === 0) break;
    if (op !== ' ' && op !== '-' && op !== '+') {
      throw new DiffParseError(
        `expected a ' ', '-', '+' or '\\' line in the hunk at line ${start + 1}, got ${quoteLine(line)}: ` +
          `its header ${shown()} declares ${oldLeft} more old and ${newLeft} more new line(s)`,
        j + 1,
      );
    }
    if (op !== '+') oldLeft--;
    if (op !== '-') newLeft--;
    if (oldLeft < 0 || newLeft < 0) {
      const side = oldLeft < 0 ? 'old (context or removed)' : 'new (context or added)';
      throw new DiffParseError(`the hunk at line ${start + 1} has more ${side} lines than its header ${shown()} declares`, j + 1);
    }
    body.push(line === '' ? ' ' : line);
    afterLine = true;
  }
  if (oldLeft > 0 || newLeft > 0) {
    throw new DiffParseError(
      `the hunk ${shown()} ends early: its header declares ${oldLeft} more old and ${newLeft} more new line(s)`,
      start + 1,
    );
  }
  const oldStart = Number(match[1]);
  const newStart = Number(match[3]);
  const hunk: DiffHunk = {
    // The `diff` package's convention: an empty side starts one past the line it follows.
    oldStart: oldLines === 0 ? oldStart + 1 : oldStart,
    oldLines,
    newStart: newLines === 0 ? newStart + 1 : newStart,
    newLines,
    lines: body,
    heading: match[5] ?? '',
  };
  return { hunk, next: j };
}

/**
 * Parse consecutive hunks starting at `lines[start]` (blank lines between two hunks are skipped).
 * Stops at the first line that does not start another hunk.
 */
export function parseHunkRun(lines: readonly string[], start: number, end: number): { hunks: DiffHunk[]; next: number } {
  const hunks: DiffHunk[] = [];
  let j = start;
  while (j < end) {
    let k = j;
    while (k < end && lines[k] === '') k++;
    if (k >= end || !isHunkHeader(lines[k]!)) break;
    const parsed = parseHunk(lines, k, end);
    hunks.push(parsed.hunk);
    j = parsed.next;
  }
  return { hunks, next: j };
}

/** Added and removed line counts of some hunks. */
export function countChanges(hunks: readonly DiffHunk[]): { addedLines: number; removedLines: number } {
  let addedLines = 0;
  let removedLines = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line[0] === '+') addedLines++;
      else if (line[0] === '-') removedLines++;
    }
  }
  return { addedLines, removedLines };
}
