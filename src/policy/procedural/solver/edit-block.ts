import { applyCandidate } from '../../../mutation/apply-candidates.js';
import type { Candidate } from '../../../mutation/mutation-operator.js';
import { findAll, splitText } from '../../../tools/line-match.js';

/** Arguments of one `edit` call: whole lines of the file, `search` occurring exactly once. */
export interface EditBlock {
  search: string;
  replace: string;
  /** 1-based first line of `search` in the file. */
  line: number;
}

type Edit = Pick<Candidate, 'start' | 'end' | 'replacement'>;

/**
 * The `edit` call that performs `edit` on `source`: the whole lines the replaced text spans, grown
 * by one line of context on each side until the block occurs only once in the file (the tool
 * refuses ambiguous blocks). Null when no unique block exists or the edit changes nothing.
 */
export function editBlockFor(source: string, edit: Edit): EditBlock | null {
  const before = splitText(source).lines;
  const after = splitText(applyCandidate(source, edit)).lines;
  const first = lineOfIndex(source, edit.start);
  const last = lineOfIndex(source, Math.max(edit.start, edit.end - 1));
  // Lines after the edit keep their content, shifted by the change in line count.
  const shift = after.length - before.length;
  let from = first;
  let to = last;
  for (;;) {
    const search = before.slice(from - 1, to);
    const replace = after.slice(from - 1, to + shift);
    const same = search.length === replace.length && search.every((line, i) => line === replace[i]);
    if (same) return null;
    // The tool reads one trailing newline as optional, so a block must not end in an empty line.
    const endsClean = search.at(-1) !== '' && (replace.length === 0 || replace.at(-1) !== '');
    if (endsClean && findAll(before, search).length === 1) return { search: search.join('\n'), replace: replace.join('\n'), line: from };
    if (from === 1 && to === before.length) return null;
    from = Math.max(1, from - 1);
    to = Math.min(before.length, to + 1);
  }
}

/** 1-based line holding the character at `index`. */
function lineOfIndex(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}
