import { findAll, splitText, type SplitText } from '../../../tools/line-match.js';

/** One call of the `edit` tool: whole lines to find exactly once, and what replaces them. */
export interface LineEdit {
  search: string;
  replace: string;
}

/**
 * The `edit` call that turns `before` into `after`: the lines between their common head and
 * common tail, widened by context lines until the search block occurs exactly once in `before`
 * (the edit tool refuses ambiguous blocks; the whole file, at worst, is unique). Null when the
 * texts have the same lines (equal, or differing only in the final newline).
 */
export function lineEditBetween(before: string, after: string): LineEdit | null {
  const a = splitOnce(before);
  const b = splitText(after);
  let head = 0;
  while (head < a.lines.length && head < b.lines.length && a.lines[head] === b.lines[head]) head++;
  let tail = 0;
  while (tail < a.lines.length - head && tail < b.lines.length - head && a.lines.at(-1 - tail) === b.lines.at(-1 - tail)) tail++;
  if (head === a.lines.length && head === b.lines.length) return null;
  let start = head;
  let end = a.lines.length - tail; // exclusive, in `a`
  let bEnd = b.lines.length - tail;
  // A pure insertion has an empty search block: it grows like an ambiguous one, to anchor on a line.
  for (;;) {
    const search = a.lines.slice(start, end);
    if (search.length > 0 && findAll(a.lines, search).length === 1) {
      return { search: joinBlock(search), replace: joinBlock(b.lines.slice(start, bEnd)) };
    }
    if (start === 0 && end === a.lines.length) return null; // an empty file: nothing to anchor on
    if (start > 0) start--;
    if (end < a.lines.length) {
      end++;
      bEnd++;
    }
  }
}

/** Lines as the edit tool reads a block back: one trailing newline is dropped, so a last blank line needs its own. */
export function joinBlock(lines: readonly string[]): string {
  return lines.join('\n') + (lines.length > 0 && lines.at(-1) === '' ? '\n' : '');
}

// The lines of the text last split as `before`: every candidate of a file is an edit of the same text.
let lastBefore: { text: string; split: SplitText } | undefined;

function splitOnce(text: string): SplitText {
  if (lastBefore?.text !== text) lastBefore = { text, split: splitText(text) };
  return lastBefore.split;
}
