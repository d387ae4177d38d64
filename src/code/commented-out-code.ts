import type { ParsedDiff } from './diff-types.js';

/** A line the weakening re-added as a comment of a line it removed. */
export interface CommentedOutLine {
  path: string;
  line: string;
}

const MIN_CODE_CHARS = 4;

function normalise(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}

/**
 * Lines of a diff that comment code out instead of deleting it (method §2: "Commenting tests out is
 * not allowed"): an added line `# <code>` (or `// <code>`) whose code equals, modulo whitespace,
 * a line the same file section removed. Trivial lines (`)`, `pass`) are ignored.
 */
export function findCommentedOutCode(diff: ParsedDiff): CommentedOutLine[] {
  const found: CommentedOutLine[] = [];
  for (const file of diff.files) {
    const removed = new Set<string>();
    const addedComments: Array<{ code: string; line: string }> = [];
    for (const hunk of file.hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('-')) removed.add(normalise(line.slice(1)));
        const comment = /^\+\s*(?:#|\/\/)\s?(.*)$/.exec(line);
        if (comment) addedComments.push({ code: normalise(comment[1] ?? ''), line: line.slice(1) });
      }
    }
    for (const { code, line } of addedComments) {
      if (code.length >= MIN_CODE_CHARS && code !== 'pass' && removed.has(code)) found.push({ path: file.newPath ?? file.oldPath ?? '', line });
    }
  }
  return found;
}
