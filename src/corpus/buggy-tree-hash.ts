import { createHash } from 'node:crypto';
import { isDiffParseError } from '../code/diff-parse-error.js';
import { changeRuns, type ChangeRun } from '../code/change-runs.js';
import type { FileDiff } from '../code/diff-types.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';

const ENCODING_VERSION = 'ssr-buggy-tree/1';

/**
 * One run of changed lines as the hash encodes it: where it starts in the old file, what goes and
 * what comes, a `\ No newline` marker after its line (ENCODING_VERSION pins this shape).
 */
function changeBlock(run: ChangeRun): { at: number; removed: string[]; added: string[] } {
  const withMarker = (lines: string[], marker: string | undefined) => (marker === undefined ? lines : [...lines, marker]);
  return { at: run.oldStart, removed: withMarker(run.removed, run.removedMarker), added: withMarker(run.added, run.addedMarker) };
}

function canonicalFile(file: FileDiff): unknown {
  return {
    kind: file.kind,
    oldPath: file.oldPath,
    newPath: file.newPath,
    // A mode on the `index` line of a plain modification is no change; a changed or new mode is.
    mode: file.oldMode === file.newMode ? null : [file.oldMode ?? null, file.newMode ?? null],
    copiedFrom: file.copiedFrom ?? null,
    binary: file.binary ? (file.binaryPatch?.[0] ?? file.index?.newHash ?? 'binary') : null,
    blocks: changeRuns(file.hunks).map(changeBlock),
  };
}

/**
 * The dedupe key of a bug: `tree-` + 16 hex chars of a sha256 over the repo, its original commit
 * and the *edits* of bug_inject.diff: per file its paths, kind, mode change and every run of
 * removed/added lines with its position in the original file, context lines dropped.
 *
 * Chosen over hashing the buggy files themselves because it needs no checkout, and over the raw
 * diff text because two diffs of one edit (different context sizes, `index` lines, hunk headings,
 * file order) then agree. It never merges two different trees: the original plus these edits
 * determine the buggy tree. It can miss a duplicate whose diff tool aligned the same result
 * differently (rare: ambiguous repeated lines). A diff that does not parse hashes as raw text.
 */
export function buggyTreeHash(input: { repo: string; commit: string; bugInject: string }): string {
  let edits: unknown;
  try {
    // Stable sort by path: the order of files does not matter, that of two sections on one path does.
    const key = (file: FileDiff): string => `${file.oldPath ?? ''}\0${file.newPath ?? ''}`;
    edits = [...parseUnifiedDiff(input.bugInject).files].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map(canonicalFile);
  } catch (error) {
    if (!isDiffParseError(error)) throw error;
    edits = { raw: input.bugInject };
  }
  const hash = createHash('sha256');
  hash.update(`${ENCODING_VERSION}\n`);
  hash.update(JSON.stringify([input.repo, input.commit, edits]));
  return `tree-${hash.digest('hex').slice(0, 16)}`;
}
