/**
 * Pure line-wise search/replace behind the `edit` tool (method §8): the search text is one or more
 * whole lines that must occur exactly once. Every failure says why, with a hint the model can act
 * on, because a bare "no match" makes models retry the same wrong text.
 */

/** A text cut into lines, remembering how to put it back together byte for byte. */
export interface SplitText {
  lines: string[];
  eol: '\n' | '\r\n';
  finalNewline: boolean;
}

export type EditOutcome =
  /** `start`..`end` (1-based, inclusive) is where the replacement now sits; empty when it deleted lines (`end` = `start` − 1). */
  | { status: 'edited'; text: string; lines: string[]; start: number; end: number; removed: number }
  | { status: 'no-match'; hint: string }
  /** 1-based first lines of every match. */
  | { status: 'multiple'; lines: number[] }
  | { status: 'empty-search' }
  | { status: 'unchanged' };

/** Split on `\n`; a file with any CRLF is treated as CRLF so edits keep its style. */
export function splitText(text: string): SplitText {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = text.endsWith('\n');
  const body = finalNewline ? text.slice(0, -1) : text;
  const lines = text === '' ? [] : body.split('\n').map((line) => line.replace(/\r$/, ''));
  return { lines, eol, finalNewline };
}

/** Lines of a search or replace block: one trailing newline is optional, `''` is no lines at all. */
export function blockLines(block: string): string[] {
  return splitText(block).lines;
}

/** 1-based start lines where `needle` occurs in `hay` under `same`. */
export function findAll(hay: string[], needle: string[], same: (a: string, b: string) => boolean = (a, b) => a === b): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  for (let i = 0; i + needle.length <= hay.length; i++) {
    let ok = true;
    for (let j = 0; j < needle.length && ok; j++) ok = same(hay[i + j]!, needle[j]!);
    if (ok) found.push(i + 1);
  }
  return found;
}

const squash = (line: string): string => line.trim().replace(/\s+/g, ' ');
const sameIgnoringSpace = (a: string, b: string): boolean => squash(a) === squash(b);

/** Replace the one whole-line occurrence of `search` in `text` by `replace`. */
export function applyEdit(text: string, search: string, replace: string): EditOutcome {
  const file = splitText(text);
  const needle = blockLines(search);
  if (needle.length === 0) return { status: 'empty-search' };
  const matches = findAll(file.lines, needle);
  if (matches.length === 0) return { status: 'no-match', hint: noMatchHint(file.lines, needle) };
  if (matches.length > 1) return { status: 'multiple', lines: matches };
  const replacement = blockLines(replace);
  if (replacement.length === needle.length && replacement.every((line, i) => line === needle[i])) return { status: 'unchanged' };
  const start = matches[0]!;
  const lines = [...file.lines.slice(0, start - 1), ...replacement, ...file.lines.slice(start - 1 + needle.length)];
  // A file that was empty or lost all its lines keeps no dangling newline.
  const joined = lines.join(file.eol) + (file.finalNewline && lines.length > 0 ? file.eol : '');
  return { status: 'edited', text: joined, lines, start, end: start + replacement.length - 1, removed: needle.length };
}

function noMatchHint(hay: string[], needle: string[]): string {
  const loose = findAll(hay, needle, sameIgnoringSpace);
  if (loose.length > 0) {
    const where = loose.slice(0, 5).map((l) => `${l}..${l + needle.length - 1}`).join(', ');
    return `a match exists if whitespace is ignored at lines ${where}; copy the exact indentation and spacing.`;
  }
  const whole = hay.join('\n');
  const at = whole.indexOf(needle.join('\n'));
  if (at >= 0) {
    const line = whole.slice(0, at).split('\n').length;
    return `the text occurs at line ${line} but not as whole lines; search must consist of complete lines.`;
  }
  const prefix = longestPrefix(hay, needle);
  if (prefix) {
    return (
      `search lines 1..${prefix.length} match lines ${prefix.start}..${prefix.start + prefix.length - 1}, ` +
      `but search line ${prefix.length + 1} differs from line ${prefix.start + prefix.length}:\n` +
      `  file:   ${JSON.stringify(hay[prefix.start + prefix.length - 1] ?? '<end of file>')}\n` +
      `  search: ${JSON.stringify(needle[prefix.length])}`
    );
  }
  return 'no line of the file equals the first search line; re-read the file (e.g. `grep -n` or `sed -n`) and copy the lines exactly.';
}

/** The longest run of leading search lines found verbatim in the file (at least one line). */
function longestPrefix(hay: string[], needle: string[]): { start: number; length: number } | null {
  let best: { start: number; length: number } | null = null;
  for (let i = 0; i < hay.length; i++) {
    let n = 0;
    while (n < needle.length && hay[i + n] === needle[n]) n++;
    if (n > 0 && (!best || n > best.length)) best = { start: i + 1, length: n };
  }
  return best;
}
