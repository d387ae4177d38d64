import { createHash } from 'node:crypto';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { isDiffParseError } from '../code/diff-parse-error.js';
import { parseUnifiedDiff, type FileDiff } from '../code/unified-diff.js';
import { stableStringify } from '../util/stable-json.js';
import type { StateKey } from './state-runs.js';

/** The tree of O: no file section applied. */
export const ORIGINAL_TREE = 'tree:original';

function sectionHash(file: FileDiff): string {
  // `line` is where the section sits in its diff text, not what it does to the file.
  const { line: _line, ...change } = file;
  return createHash('sha256').update(stableStringify(change)).digest('hex');
}

/** Each diff applied is one group: the sections of one `git apply`, which succeeds or fails as a whole. */
function treeOf(...groups: (readonly FileDiff[])[]): string {
  const applied = groups.filter((group) => group.length > 0);
  if (applied.length === 0) return ORIGINAL_TREE;
  return `tree:${createHash('sha256').update(applied.map((group) => group.map(sectionHash).join('\n')).join('\n--\n')).digest('hex')}`;
}

/** A section `git checkout HEAD -- <path>` undoes exactly: an in-place text edit of a file of O. */
function plainEdit(file: FileDiff): boolean {
  return file.kind === 'modified' && !file.binary && file.oldPath === file.newPath;
}

/**
 * The content identity of the tree each state runs its tests on: the pinned commit plus the file
 * sections applied to it, in order, so two states (of one artifact or of two) with equal ids run
 * the same test script over the same files and their runs are interchangeable. undefined where
 * the tree is not determined by the sections alone (an unparsable diff or one without a file
 * section, which `git apply` may refuse where O applies nothing; an inverse state of a bug
 * that renames, adds, deletes or binary-patches files, where reverting one path is not dropping
 * one section): such a state is always run for itself.
 *
 * The case this pays for: a one-file bug's only inverse state (B with that file reverted) is O, so
 * the validator reads its result from the original run instead of starting another sandbox.
 */
export function stateTrees(artifact: BugArtifact): (key: StateKey) => string | undefined {
  let bug: FileDiff[];
  let weaken: FileDiff[];
  try {
    bug = parseUnifiedDiff(artifact.bugInject).files;
    weaken = parseUnifiedDiff(artifact.testWeaken).files;
  } catch (error) {
    if (!isDiffParseError(error)) throw error;
    return (key) => (key === 'original' || key === 'original-repeat' ? ORIGINAL_TREE : undefined);
  }
  const invertible = bug.every(plainEdit);
  const known = bug.length > 0 && weaken.length > 0;
  return (key) => {
    if (key === 'original' || key === 'original-repeat') return ORIGINAL_TREE;
    if (!known) return undefined;
    if (key === 'buggy') return treeOf(bug);
    if (key === 'weakened') return treeOf(bug, weaken);
    const reverted = key.slice('inverse:'.length);
    return invertible ? treeOf(bug.filter((file) => file.oldPath !== reverted)) : undefined;
  };
}
