import type Parser from 'tree-sitter';
import { parseSource } from '../code/parse-source.js';
import type { SourceLanguage } from '../code/source-language.js';

type Edit = { start: number; end: number; replacement: string };

/**
 * Parses one-edit mutants of a module incrementally: tree-sitter re-reads only the edited region,
 * so checking each candidate of a 3,000-line JS module costs a fraction of a full parse. A private
 * tree of the original is edited forward to parse a mutant and the mutant's tree edited back to
 * re-parse the original, so the caller's tree is never touched (`edit()` shifts its nodes in place).
 * Offsets and columns are JS string indices, as the node binding counts them. The tree handed to
 * `use` is valid only during the call.
 */
export function incrementalReparser(original: string, language: SourceLanguage): <T>(mutated: string, edit: Edit, use: (tree: Parser.Tree) => T) => T {
  let scratch = parseSource(original, language);
  return (mutated, edit, use) => {
    // An edit that does not describe the text (a replacement of the wrong length) would put the
    // private tree out of step for every later mutant: that one is parsed whole instead.
    if (typeof edit.replacement !== 'string' || mutated.length !== original.length - (edit.end - edit.start) + edit.replacement.length) {
      return use(parseSource(mutated, language));
    }
    const newEnd = edit.start + edit.replacement.length;
    scratch.edit(delta(original, mutated, edit.start, edit.end, newEnd));
    const tree = parseSource(mutated, language, scratch);
    const result = use(tree);
    // The mutant's tree, edited back, is the old tree for re-parsing the original: the next
    // mutant starts again from a tree that matches `original`. `use` is done with it by now.
    tree.edit(delta(mutated, original, edit.start, newEnd, edit.end));
    scratch = parseSource(original, language, tree);
    return result;
  };
}

function delta(before: string, after: string, start: number, oldEnd: number, newEnd: number): Parser.Edit {
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointOf(before, start),
    oldEndPosition: pointOf(before, oldEnd),
    newEndPosition: pointOf(after, newEnd),
  };
}

function pointOf(text: string, index: number): Parser.Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    row += 1;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}
