import { DiffParseError } from './diff-parse-error.js';
import type { DiffHunk, FileDiff, FileDiffKind } from './diff-types.js';
import { formatGitDiff } from './format-git-diff.js';
import { parseUnifiedDiff } from './unified-diff.js';

const OPPOSITE: Record<FileDiffKind, FileDiffKind> = { added: 'deleted', deleted: 'added', modified: 'modified', renamed: 'renamed' };

interface Item {
  line: string;
  markers: string[];
}

/** Swap `-`/`+` and the ranges; in each run of changes put the (new) removals first, as diff tools do. */
export function invertHunk(hunk: DiffHunk): DiffHunk {
  const items: Item[] = [];
  for (const line of hunk.lines) {
    if (line[0] === '\\' && items.length > 0) items.at(-1)!.markers.push(line);
    else items.push({ line, markers: [] });
  }
  const out: Item[] = [];
  let removed: Item[] = [];
  let added: Item[] = [];
  const flush = (): void => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const item of items) {
    const op = item.line[0];
    if (op === '+') removed.push({ ...item, line: `-${item.line.slice(1)}` });
    else if (op === '-') added.push({ ...item, line: `+${item.line.slice(1)}` });
    else {
      flush();
      out.push(item);
    }
  }
  flush();
  return {
    oldStart: hunk.newStart,
    oldLines: hunk.newLines,
    newStart: hunk.oldStart,
    newLines: hunk.oldLines,
    lines: out.flatMap((item) => [item.line, ...item.markers]),
    heading: hunk.heading,
  };
}

/** The file diff that undoes `file`. */
export function invertFileDiff(file: FileDiff): FileDiff {
  const name = file.newPath ?? file.oldPath;
  if (file.copiedFrom !== undefined) {
    throw new DiffParseError(`cannot invert the copy of ${file.copiedFrom} to ${name}: undoing it needs the copy's full content`, file.line);
  }
  if (file.binary && (file.binaryPatch?.length ?? 0) < 2) {
    throw new DiffParseError(`cannot invert the binary change of ${name}: the diff carries no reverse data (make it with "git diff --binary")`, file.line);
  }
  const inverted: FileDiff = {
    oldPath: file.newPath,
    newPath: file.oldPath,
    kind: OPPOSITE[file.kind],
    hunks: file.hunks.map(invertHunk),
    addedLines: file.removedLines,
    removedLines: file.addedLines,
    binary: file.binary,
    line: file.line,
  };
  if (file.newMode !== undefined) inverted.oldMode = file.newMode;
  if (file.oldMode !== undefined) inverted.newMode = file.oldMode;
  if (file.similarity !== undefined) inverted.similarity = file.similarity;
  if (file.index) inverted.index = { oldHash: file.index.newHash, newHash: file.index.oldHash };
  if (file.binaryPatch) inverted.binaryPatch = [file.binaryPatch[1]!, file.binaryPatch[0]!, ...file.binaryPatch.slice(2)];
  return inverted;
}

/**
 * A git-format diff that undoes `diff`: added ↔ deleted files, `-`/`+` lines and hunk ranges
 * swapped, renames and mode changes reversed, `GIT binary patch` blocks swapped. Files come in
 * reverse order so two sections on one path undo in the right sequence. `git apply` of the diff
 * then of its inverse restores the tree byte for byte.
 *
 * @throws DiffParseError when `diff` does not parse, or holds a change that cannot be undone from
 *   the diff alone (a copy, a binary change without `GIT binary patch` data).
 */
export function invertUnifiedDiff(diff: string | Uint8Array): string {
  return formatGitDiff(parseUnifiedDiff(diff).files.map(invertFileDiff).reverse());
}
