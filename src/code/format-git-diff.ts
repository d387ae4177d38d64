import type { DiffHunk, FileDiff } from './diff-types.js';
import { DEV_NULL, quotePath } from './git-path.js';

function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}

export function formatHunk(hunk: DiffHunk): string[] {
  return [`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@${hunk.heading}`, ...hunk.lines];
}

/** `---`/`+++` name: git adds a tab after a name with a space (quoted or not), as GNU patch expects. */
function fileLine(prefix: string, path: string | null): string {
  if (path === null) return DEV_NULL;
  const name = quotePath(`${prefix}${path}`);
  return path.includes(' ') ? `${name}\t` : name;
}

function modeLines(file: FileDiff): string[] {
  if (file.copiedFrom !== undefined) return [];
  if (file.kind === 'added') return [`new file mode ${file.newMode ?? '100644'}`];
  if (file.kind === 'deleted') return [`deleted file mode ${file.oldMode ?? '100644'}`];
  if (file.oldMode !== undefined && file.newMode !== undefined && file.oldMode !== file.newMode) {
    return [`old mode ${file.oldMode}`, `new mode ${file.newMode}`];
  }
  return [];
}

function moveLines(file: FileDiff): string[] {
  const similarity = file.similarity === undefined ? [] : [`similarity index ${file.similarity}%`];
  if (file.copiedFrom !== undefined) return [...similarity, `copy from ${quotePath(file.copiedFrom)}`, `copy to ${quotePath(file.newPath!)}`];
  if (file.kind !== 'renamed') return [];
  return [...similarity, `rename from ${quotePath(file.oldPath!)}`, `rename to ${quotePath(file.newPath!)}`];
}

function indexLine(file: FileDiff): string[] {
  if (!file.index) return [];
  const sameMode = file.kind !== 'added' && file.kind !== 'deleted' && file.oldMode !== undefined && file.oldMode === file.newMode;
  return [`index ${file.index.oldHash}..${file.index.newHash}${sameMode ? ` ${file.oldMode}` : ''}`];
}

function contentLines(file: FileDiff, oldSide: string | null, newSide: string | null): string[] {
  if (file.binaryPatch) return ['GIT binary patch', ...file.binaryPatch.flatMap((block) => [...block, ''])];
  if (file.binary) return [`Binary files ${fileLine('a/', oldSide).trimEnd()} and ${fileLine('b/', newSide).trimEnd()} differ`];
  if (file.hunks.length === 0) return [];
  return [`--- ${fileLine('a/', oldSide)}`, `+++ ${fileLine('b/', newSide)}`, ...file.hunks.flatMap(formatHunk)];
}

/** One file as a `diff --git` section, lines without their newlines. */
export function formatGitSection(file: FileDiff): string[] {
  const a = file.copiedFrom ?? file.oldPath ?? file.newPath!;
  const b = file.newPath ?? file.oldPath!;
  const oldSide = file.kind === 'added' ? null : a;
  const newSide = file.kind === 'deleted' ? null : b;
  return [
    `diff --git ${quotePath(`a/${a}`)} ${quotePath(`b/${b}`)}`,
    ...modeLines(file),
    ...moveLines(file),
    ...indexLine(file),
    ...contentLines(file, oldSide, newSide),
  ];
}

/**
 * Write files as a git-format diff (`diff --git a/x b/x`, extended headers, `--- a/x`, `+++ b/x`,
 * hunks) that `git apply` accepts. Empty list → empty string.
 */
export function formatGitDiff(files: readonly FileDiff[]): string {
  return files.map((file) => `${formatGitSection(file).join('\n')}\n`).join('');
}
