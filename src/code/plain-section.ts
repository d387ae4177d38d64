import { DiffParseError, quoteLine } from './diff-parse-error.js';
import type { FileDiff } from './diff-types.js';
import { DEV_NULL, parseFileLine, stripPrefix } from './git-path.js';
import { countChanges, isHunkHeader, parseHunkRun } from './parse-hunk.js';

const BINARY_DIFFER = /^Binary files (.+) and (.+) differ$/;

/** `diff -N` marks a missing side with the epoch as its timestamp instead of `/dev/null`. */
function isAbsent(name: string, timestamp: string): boolean {
  return name === DEV_NULL || /^(?:1970-01-01|1969-12-31)[ T]/.test(timestamp);
}

/** `--- a` + `+++ b` at `lines[start]`: the start of a plain (non-git) file section. */
export function isPlainSectionStart(lines: readonly string[], start: number): boolean {
  return lines[start]!.startsWith('--- ') && (lines[start + 1]?.startsWith('+++ ') ?? false);
}

function paths(oldName: string, oldAbsent: boolean, newName: string, newAbsent: boolean, line: number): Pick<FileDiff, 'oldPath' | 'newPath' | 'kind'> {
  if (oldAbsent && newAbsent) throw new DiffParseError('both sides of the file header are /dev/null', line);
  if (oldAbsent) return { oldPath: null, newPath: stripPrefix(newName), kind: 'added' };
  if (newAbsent) return { oldPath: stripPrefix(oldName), newPath: null, kind: 'deleted' };
  // Like `git apply` on a traditional diff: the file is the one the `+++` line names
  // (`diff -u x.py.orig x.py` patches x.py).
  const path = stripPrefix(newName);
  return { oldPath: path, newPath: path, kind: 'modified' };
}

/**
 * Parse a plain `diff -u` file section at `lines[start]` (a `---` line followed by `+++`).
 * Paths are stripped like `git apply -p1`. The section ends after its last hunk.
 */
export function parsePlainSection(lines: readonly string[], start: number): { file: FileDiff; next: number } {
  const oldName = parseFileLine(lines[start]!.slice(4));
  const newName = parseFileLine(lines[start + 1]!.slice(4));
  if (!oldName || !newName) {
    const bad = oldName ? start + 1 : start;
    throw new DiffParseError(`unreadable file name in ${quoteLine(lines[bad]!)}`, bad + 1);
  }
  if (start + 2 >= lines.length || !isHunkHeader(lines[start + 2]!)) {
    throw new DiffParseError(`the file header ${quoteLine(lines[start]!)} has no hunks (expected "@@ -a,b +c,d @@" next)`, start + 1);
  }
  const { hunks, next } = parseHunkRun(lines, start + 2, lines.length);
  const kinds = paths(oldName.name, isAbsent(oldName.name, oldName.timestamp), newName.name, isAbsent(newName.name, newName.timestamp), start + 1);
  for (const hunk of hunks) {
    if (kinds.kind === 'added' && hunk.oldLines > 0) throw new DiffParseError(`a new file's hunk has ${hunk.oldLines} old line(s)`, start + 1);
    if (kinds.kind === 'deleted' && hunk.newLines > 0) throw new DiffParseError(`a deleted file's hunk has ${hunk.newLines} new line(s)`, start + 1);
  }
  return { file: { ...kinds, hunks, ...countChanges(hunks), binary: false, line: start + 1 }, next };
}

/** A lone `Binary files X and Y differ` line, as plain `diff -r` prints it; null for any other line. */
export function parsePlainBinaryLine(line: string, index: number): FileDiff | null {
  const match = BINARY_DIFFER.exec(line.replace(/\r$/, ''));
  if (!match) return null;
  const [oldName, newName] = [match[1]!, match[2]!];
  return { ...paths(oldName, oldName === DEV_NULL, newName, newName === DEV_NULL, index + 1), hunks: [], addedLines: 0, removedLines: 0, binary: true, line: index + 1 };
}
