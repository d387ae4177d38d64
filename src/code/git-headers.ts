import { unquoteAt } from './git-path.js';

/** The extended header lines of one `diff --git` section (between the `diff --git` line and `---`). */
export interface GitHeaders {
  oldMode?: string;
  newMode?: string;
  newFileMode?: string;
  deletedFileMode?: string;
  renameFrom?: string;
  renameTo?: string;
  copyFrom?: string;
  copyTo?: string;
  similarity?: number;
  index?: { oldHash: string; newHash: string; mode?: string };
}

/** A rename/copy name is not prefixed but may be C-quoted. */
function plainName(text: string): string {
  return text.startsWith('"') ? (unquoteAt(text, 0)?.name ?? text) : text;
}

const RULES: ReadonlyArray<[RegExp, (match: RegExpExecArray, headers: GitHeaders) => void]> = [
  [/^old mode ([0-7]{6})$/, (m, h) => void (h.oldMode = m[1])],
  [/^new mode ([0-7]{6})$/, (m, h) => void (h.newMode = m[1])],
  [/^new file mode ([0-7]{6})$/, (m, h) => void (h.newFileMode = m[1])],
  [/^deleted file mode ([0-7]{6})$/, (m, h) => void (h.deletedFileMode = m[1])],
  // `rename old`/`rename new` is what git wrote before 1.5.
  [/^rename (?:from|old) (.+)$/, (m, h) => void (h.renameFrom = plainName(m[1]!))],
  [/^rename (?:to|new) (.+)$/, (m, h) => void (h.renameTo = plainName(m[1]!))],
  [/^copy from (.+)$/, (m, h) => void (h.copyFrom = plainName(m[1]!))],
  [/^copy to (.+)$/, (m, h) => void (h.copyTo = plainName(m[1]!))],
  [/^similarity index (\d+)%$/, (m, h) => void (h.similarity = Number(m[1]))],
  // A complete rewrite (`git diff -B`); nothing to keep, the hunks say it all.
  [/^dissimilarity index \d+%$/, () => undefined],
  [
    /^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: ([0-7]{6}))?$/,
    (m, h) => void (h.index = { oldHash: m[1]!, newHash: m[2]!, ...(m[3] ? { mode: m[3] } : {}) }),
  ],
];

/**
 * Apply one extended header line to `headers`.
 * @returns false when the line is not an extended header (the headers end there).
 */
export function readGitHeader(line: string, headers: GitHeaders): boolean {
  const clean = line.replace(/\r$/, '');
  for (const [pattern, apply] of RULES) {
    const match = pattern.exec(clean);
    if (match) {
      apply(match, headers);
      return true;
    }
  }
  return false;
}
