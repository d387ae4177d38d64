import { DiffParseError, quoteLine } from './diff-parse-error.js';
import type { FileDiff, ParsedDiff } from './diff-types.js';
import { isGitSectionStart, parseGitSection } from './git-section.js';
import { isHunkHeader } from './parse-hunk.js';
import { isPlainSectionStart, parsePlainBinaryLine, parsePlainSection } from './plain-section.js';
import { describeNonText, findNonTextBytes } from './text-bytes.js';

export type { DiffHunk, FileDiff, FileDiffKind, ParsedDiff } from './diff-types.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Bytes or a string → text, refusing anything that looks binary. */
function toText(input: string | Uint8Array): string {
  if (typeof input !== 'string') {
    const found = findNonTextBytes(input);
    if (found) {
      const line = input.subarray(0, found.byte).filter((byte) => byte === 10).length + 1;
      throw new DiffParseError(`${describeNonText(found)}; expected a text unified diff`, line);
    }
    return new TextDecoder().decode(input);
  }
  const nul = input.indexOf('\0');
  if (nul >= 0) throw new DiffParseError(`binary data (NUL character at offset ${nul}); expected a text unified diff`, lineOf(input, nul));
  const surrogate = LONE_SURROGATE.exec(input);
  if (surrogate) throw new DiffParseError(`invalid text (lone UTF-16 surrogate at offset ${surrogate.index}); expected a text unified diff`, lineOf(input, surrogate.index));
  return input;
}

function nextGitSection(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && !isGitSectionStart(lines[i]!)) i++;
  return i;
}

function touched(files: readonly FileDiff[]): string[] {
  const paths = new Set<string>();
  for (const file of files) {
    if (file.oldPath !== null) paths.add(file.oldPath);
    if (file.newPath !== null) paths.add(file.newPath);
  }
  return [...paths].sort();
}

/**
 * Parse a unified diff: `git diff` output (extended headers, renames, copies, mode changes,
 * binary patches) or plain `diff -u` / `diff -ruN` output. Text before the first file header is
 * ignored (a commit message); so are lines between plain sections such as `Only in …`.
 * An empty or blank input is a valid diff with no files. Paths are stripped like `git apply -p1`.
 *
 * Hand-written instead of the `diff` package's `parsePatch` (whose hunk structure it keeps): that
 * parser folds a hunk-less git section (pure rename, mode change, empty file, binary) into the
 * next file, silently drops `Binary files … differ` and garbage lines, and accepts a hunk whose
 * omitted count contradicts its body.
 *
 * @throws DiffParseError (code `diff-invalid`) for binary input, text that is not a diff, a hunk
 *   whose body does not match its header, or a file header without hunks where it needs some.
 */
export function parseUnifiedDiff(input: string | Uint8Array): ParsedDiff {
  const lines = toText(input).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const files: FileDiff[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isGitSectionStart(line)) {
      const end = nextGitSection(lines, i + 1);
      files.push(parseGitSection(lines, i, end));
      i = end;
      continue;
    }
    // `git format-patch` ends with "-- " and the git version.
    if (line === '-- ' && files.length > 0) break;
    if (isPlainSectionStart(lines, i)) {
      const { file, next } = parsePlainSection(lines, i);
      files.push(file);
      i = next;
      continue;
    }
    const binary = parsePlainBinaryLine(line, i);
    if (binary) files.push(binary);
    else if (isHunkHeader(line)) throw new DiffParseError(`hunk header ${quoteLine(line)} without a "---"/"+++" file header before it`, i + 1);
    else if (line.startsWith('--- ')) throw new DiffParseError(`the "---" file header ${quoteLine(line)} is not followed by a "+++" header`, i + 1);
    else if (files.length > 0 && /^[-+ \\]/.test(line)) {
      throw new DiffParseError(`unexpected ${quoteLine(line)} after a hunk ended: the hunk has more lines than its header declares, or the diff is corrupt`, i + 1);
    }
    i++;
  }
  if (files.length === 0) {
    const first = lines.findIndex((line) => line.trim() !== '');
    if (first >= 0) {
      throw new DiffParseError(`not a unified diff: no "diff --git" or "---"/"+++" file header found; it starts with ${quoteLine(lines[first]!)}`, first + 1);
    }
  }
  return { files, touchedPaths: touched(files) };
}
