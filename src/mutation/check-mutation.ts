import { hasEmptyBlock, parsePython, type PyTree } from '../code/python/parse-python.js';
import { parseSource } from '../code/parse-source.js';
import type { SourceLanguage } from '../code/source-language.js';
import { applyCandidates } from './apply-candidates.js';
import { enclosingChunk } from './enclosing-chunk.js';
import { incrementalReparser } from './incremental-reparse.js';
import { rowOf } from './line-edits.js';
import type { Candidate } from './mutation-operator.js';

type Edit = Pick<Candidate, 'start' | 'end' | 'replacement'>;

/**
 * Judges sets of edits to one valid module: valid iff the text changes, the result parses, no block
 * is left without a statement, and no comment appears that the original lacked (no edit may leave
 * a hint). A single edit inside a compound statement is judged on that statement alone (see
 * `enclosingChunk`), which makes checking a method of a 3,000-line module cost a parse of the method.
 * JS/TS modules are judged whole (braces, not indentation, close their blocks, and an empty block
 * is valid there): the result must parse without tree-sitter errors and gain no comment.
 */
export function mutationChecker(original: string, tree: PyTree, language: SourceLanguage = 'python'): (edits: readonly Edit[]) => boolean {
  const reparse = language === 'python' ? undefined : incrementalReparser(original, language);
  return (edits) => {
    if (applyCandidates(original, edits) === original) return false;
    if (reparse) {
      const mutated = applyCandidates(original, edits);
      // One edit (every candidate) re-parses incrementally; a set of picks is parsed whole.
      if (edits.length === 1) return reparse(mutated, edits[0]!, (mutatedTree) => judgeWhole(original, tree, mutated, mutatedTree, edits));
      return judgeWhole(original, tree, mutated, parseSource(mutated, language), edits);
    }
    const chunk = edits.length === 1 ? enclosingChunk(original, tree, edits[0]!) : undefined;
    if (!chunk) return judge(original, tree, 0, original, edits);
    // Offsets of the edit inside "prefix + statement lines" are shifted by this much.
    const shift = chunk.prefix.length - chunk.start;
    const text = chunk.prefix + original.slice(chunk.start, chunk.end);
    const local = edits.map((edit) => ({ ...edit, start: edit.start + shift, end: edit.end + shift }));
    return judge(original, tree, shift, text, local);
  };
}

// `edits` are offsets into `text`; `text` minus `shift` maps back to `original` for the comments.
function judge(original: string, tree: PyTree, shift: number, text: string, edits: readonly Edit[]): boolean {
  const mutated = applyCandidates(text, edits);
  const mutatedTree = parsePython(mutated);
  if (mutatedTree.rootNode.hasError) return false;
  let drift = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const start = edit.start + drift;
    const end = start + edit.replacement.length;
    drift += edit.replacement.length - (edit.end - edit.start);
    // A block emptied by a deletion sits at the end of its header, which only blank and comment
    // lines separate from the deleted text.
    const rows = { from: rowOf(mutated, headerSearchStart(mutated, start)), to: rowOf(mutated, end) };
    if (hasEmptyBlock(mutatedTree, rows)) return false;
    const before = commentsIn(tree, original, edit.start - shift, edit.end - shift);
    if (addsComment(before, commentsIn(mutatedTree, mutated, start, end))) return false;
  }
  return true;
}

function judgeWhole(original: string, tree: PyTree, mutated: string, mutatedTree: PyTree, edits: readonly Edit[]): boolean {
  if (mutatedTree.rootNode.hasError) return false;
  let drift = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const start = edit.start + drift;
    drift += edit.replacement.length - (edit.end - edit.start);
    const before = commentsIn(tree, original, edit.start, edit.end);
    if (addsComment(before, commentsIn(mutatedTree, mutated, start, start + edit.replacement.length))) return false;
  }
  return true;
}

function headerSearchStart(text: string, index: number): number {
  let lineStart = text.lastIndexOf('\n', index - 1) + 1;
  while (lineStart > 0) {
    const previous = text.lastIndexOf('\n', lineStart - 2) + 1;
    if (!/^[ \t]*(#.*)?$/.test(text.slice(previous, lineStart - 1))) return previous;
    lineStart = previous;
  }
  return 0;
}

// Comments whose text overlaps [start, end] (whole rows are searched, then narrowed by index).
function commentsIn(tree: PyTree, text: string, start: number, end: number): string[] {
  const from = { row: rowOf(text, start), column: 0 };
  const to = { row: rowOf(text, end) + 1, column: 0 };
  return tree.rootNode.descendantsOfType('comment', from, to)
    .filter((node) => node.startIndex <= end && node.endIndex >= start)
    .map((node) => node.text);
}

function addsComment(before: string[], after: string[]): boolean {
  const remaining = [...before];
  for (const comment of after) {
    const at = remaining.indexOf(comment);
    if (at === -1) return true;
    remaining.splice(at, 1);
  }
  return false;
}
