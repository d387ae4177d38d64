import { classifyFileHunks, mayHoldDoctests } from '../../code/classify-hunk.js';
import type { DiffHunk, FileDiff } from '../../code/diff-types.js';
import type { DroppedSection } from './drop-reason.js';

/**
 * Leave out every hunk of a Solver's patch that changes a doctest example line (only examples, or
 * examples beside code): examples are test code even inside a code file, so editing an expected
 * output is never a fix. `texts` holds the files as the patch finds them (the Solver's base: O +
 * bug_inject); a section whose file is not there, or that does not apply to it, is kept whole
 * (applying it decides). The kept hunks of a section move up by the lines the dropped ones added.
 */
export function dropExampleHunks(files: readonly FileDiff[], texts: ReadonlyMap<string, string>): { kept: FileDiff[]; dropped: DroppedSection[] } {
  const kept: FileDiff[] = [];
  const dropped: DroppedSection[] = [];
  for (const file of files) {
    const path = file.newPath ?? file.oldPath ?? '';
    const text = file.kind === 'modified' && mayHoldDoctests(path) ? texts.get(path) : undefined;
    const kinds = text === undefined ? null : classifyFileHunks(file, text);
    if (kinds === null || kinds.every((kind) => kind === 'code')) {
      kept.push(file);
      continue;
    }
    dropped.push({ path, reason: 'doctest-example' });
    const hunks: DiffHunk[] = [];
    let shift = 0;
    file.hunks.forEach((hunk, index) => {
      if (kinds[index] === 'code') hunks.push({ ...hunk, newStart: hunk.newStart - shift });
      else shift += hunk.newLines - hunk.oldLines;
    });
    if (hunks.length > 0) kept.push({ ...file, hunks });
  }
  return { kept, dropped };
}
