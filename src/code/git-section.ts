import { DiffParseError, quoteLine } from './diff-parse-error.js';
import type { DiffHunk, FileDiff, FileDiffKind } from './diff-types.js';
import { readGitHeader, type GitHeaders } from './git-headers.js';
import { DEV_NULL, parseFileLine, splitGitHeaderNames, stripPrefix } from './git-path.js';
import { countChanges, parseHunkRun } from './parse-hunk.js';

const GIT_HEADER = 'diff --git ';
const BINARY_DIFFER = /^Binary files (.+) and (.+) differ$/;
const BINARY_BLOCK = /^(?:literal|delta) \d+$/;

export function isGitSectionStart(line: string): boolean {
  return line.startsWith(GIT_HEADER);
}

interface Content {
  /** Raw `---`/`+++` names (prefix not stripped), when the section has them. */
  names?: { old: string; new: string };
  hunks: DiffHunk[];
  binary: boolean;
  binaryPatch?: string[][];
  next: number;
}

/** `GIT binary patch` then blocks of `literal N`/`delta N` + base85 lines, each ended by a blank line. */
function readBinaryPatch(lines: readonly string[], start: number, end: number): { blocks: string[][]; next: number } {
  const blocks: string[][] = [];
  let j = start + 1;
  while (j < end && lines[j] !== '-- ') {
    const line = lines[j]!.replace(/\r$/, '');
    if (line === '') {
      j++;
      continue;
    }
    if (!BINARY_BLOCK.test(line)) break;
    const block = [line];
    for (j++; j < end && lines[j] !== ''; j++) block.push(lines[j]!.replace(/\r$/, ''));
    blocks.push(block);
  }
  if (blocks.length === 0) throw new DiffParseError('"GIT binary patch" without a "literal N" or "delta N" block', start + 1);
  return { blocks, next: j };
}

function readContent(lines: readonly string[], start: number, end: number): Content {
  const line = (lines[start] ?? '').replace(/\r$/, '');
  if (start >= end) return { hunks: [], binary: false, next: start };
  if (line.startsWith('--- ')) {
    const plus = lines[start + 1];
    if (start + 1 >= end || plus === undefined || !plus.startsWith('+++ ')) {
      throw new DiffParseError(`the "---" file header ${quoteLine(line)} is not followed by a "+++" header`, start + 1);
    }
    const oldName = parseFileLine(line.slice(4));
    const newName = parseFileLine(plus.slice(4));
    if (!oldName || !newName) throw new DiffParseError(`unreadable file name in ${quoteLine(oldName ? plus : line)}`, start + (oldName ? 2 : 1));
    const { hunks, next } = parseHunkRun(lines, start + 2, end);
    if (hunks.length === 0) {
      throw new DiffParseError(`the file header ${quoteLine(line)} has no hunks (expected "@@ -a,b +c,d @@" next)`, start + 1);
    }
    return { names: { old: oldName.name, new: newName.name }, hunks, binary: false, next };
  }
  if (BINARY_DIFFER.test(line)) return { hunks: [], binary: true, next: start + 1 };
  if (line === 'GIT binary patch') {
    const { blocks, next } = readBinaryPatch(lines, start, end);
    return { hunks: [], binary: true, binaryPatch: blocks, next };
  }
  return { hunks: [], binary: false, next: start };
}

/** Anything after the content must be blank, or a format-patch signature (`-- `) ending the diff. */
function expectNothingMore(lines: readonly string[], start: number, end: number, hadHunks: boolean): void {
  for (let j = start; j < end; j++) {
    const line = lines[j]!;
    if (line === '-- ') return;
    if (line.trim() === '') continue;
    const why = hadHunks
      ? 'the hunk before it has more lines than its header declares, or the diff is corrupt'
      : 'not a git extended header, "---"/"+++" file header, hunk or binary patch';
    throw new DiffParseError(`unexpected ${quoteLine(line)}: ${why}`, j + 1);
  }
}

/** The section's kind, or null when it says the file is both added and deleted. */
function kindOf(headers: GitHeaders, names: Content['names']): FileDiffKind | null {
  const added = headers.newFileMode !== undefined || names?.old === DEV_NULL || headers.copyTo !== undefined;
  const deleted = headers.deletedFileMode !== undefined || names?.new === DEV_NULL;
  if (added && deleted) return null;
  if (added) return 'added';
  if (deleted) return 'deleted';
  return headers.renameFrom !== undefined || headers.renameTo !== undefined ? 'renamed' : 'modified';
}

/**
 * Parse one `diff --git` section, `lines[start]` to `lines[end - 1]` (the caller cuts sections at
 * the next `diff --git` line, which can never start a hunk line).
 * @throws DiffParseError for anything git apply would not understand or that contradicts itself.
 */
export function parseGitSection(lines: readonly string[], start: number, end: number): FileDiff {
  const headerLine = lines[start]!.replace(/\r$/, '');
  const headers: GitHeaders = {};
  let j = start + 1;
  while (j < end && readGitHeader(lines[j]!, headers)) j++;
  const content = readContent(lines, j, end);
  expectNothingMore(lines, content.next, end, content.hunks.length > 0);

  const fail = (message: string): never => {
    throw new DiffParseError(`${message} (in the section ${quoteLine(headerLine)})`, start + 1);
  };
  const kind = kindOf(headers, content.names) ?? fail('a file cannot be both added and deleted');
  if ((headers.renameFrom === undefined) !== (headers.renameTo === undefined)) fail('"rename from" without "rename to", or the reverse');
  if ((headers.copyFrom === undefined) !== (headers.copyTo === undefined)) fail('"copy from" without "copy to", or the reverse');
  const modeChange = headers.oldMode !== undefined && headers.newMode !== undefined && headers.oldMode !== headers.newMode;
  const hunkless = kind === 'added' || kind === 'deleted' || kind === 'renamed' || modeChange;
  if (content.hunks.length === 0 && !content.binary && !hunkless) {
    fail('no hunks, and no rename, mode change, or empty-file add or delete');
  }

  const strip = (name: string): string | null => (name === DEV_NULL ? null : stripPrefix(name));
  const fromHeader = splitGitHeaderNames(headerLine.slice(GIT_HEADER.length));
  let oldPath = content.names ? strip(content.names.old) : (fromHeader?.a ?? null);
  let newPath = content.names ? strip(content.names.new) : (fromHeader?.b ?? null);
  if (headers.renameFrom !== undefined) oldPath = headers.renameFrom;
  if (headers.renameTo !== undefined) newPath = headers.renameTo;
  if (headers.copyTo !== undefined) newPath = headers.copyTo;
  if (kind === 'added') oldPath = null;
  if (kind === 'deleted') newPath = null;
  if (kind !== 'deleted' && newPath === null) fail('cannot tell the new file name');
  if (kind !== 'added' && oldPath === null) fail('cannot tell the old file name');
  if (kind === 'modified' && oldPath !== newPath) fail(`old name "${oldPath}" and new name "${newPath}" differ without a "rename" header`);
  for (const hunk of content.hunks) {
    if (kind === 'added' && hunk.oldLines > 0) fail(`a new file's hunk has ${hunk.oldLines} old line(s)`);
    if (kind === 'deleted' && hunk.newLines > 0) fail(`a deleted file's hunk has ${hunk.newLines} new line(s)`);
  }

  const file: FileDiff = {
    oldPath,
    newPath,
    kind,
    hunks: content.hunks,
    ...countChanges(content.hunks),
    binary: content.binary,
    line: start + 1,
  };
  const oldMode = headers.deletedFileMode ?? headers.oldMode ?? (kind === 'added' ? undefined : headers.index?.mode);
  const newMode = headers.newFileMode ?? headers.newMode ?? (kind === 'deleted' ? undefined : headers.index?.mode);
  if (oldMode !== undefined) file.oldMode = oldMode;
  if (newMode !== undefined) file.newMode = newMode;
  if (headers.similarity !== undefined) file.similarity = headers.similarity;
  if (headers.copyFrom !== undefined) file.copiedFrom = headers.copyFrom;
  if (headers.index) file.index = { oldHash: headers.index.oldHash, newHash: headers.index.newHash };
  if (content.binaryPatch) file.binaryPatch = content.binaryPatch;
  return file;
}
