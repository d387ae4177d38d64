import type { PyNode, PyTree } from '../code/python/parse-python.js';
import { rowOf } from './line-edits.js';

const COMPOUND_TYPES = new Set([
  'function_definition', 'class_definition', 'if_statement', 'for_statement', 'while_statement', 'try_statement',
  'with_statement', 'match_statement',
]);

/** A compound statement that holds an edit, cut out so it parses on its own. */
export interface Chunk {
  /** Header lines that recreate the indentation the statement sits at (`if 1:` per level). */
  prefix: string;
  /** The statement's whole lines in the original: [start, end). */
  start: number;
  end: number;
}

/**
 * The innermost compound statement whose body strictly holds the edit's lines, as a stand-alone
 * snippet. Python statements are self-contained (brackets, strings and blocks close inside them),
 * so the mutated module parses iff the mutated snippet does, and checking a method costs a parse of
 * the method instead of the whole file. Undefined when the edit is at module level or the layout is
 * unusual (code before the statement on its line): the caller parses the whole module.
 */
export function enclosingChunk(source: string, tree: PyTree, edit: { start: number; end: number }): Chunk | undefined {
  const firstRow = rowOf(source, edit.start);
  const lastRow = rowOf(source, Math.max(edit.start, edit.end - 1));
  let node: PyNode | null = tree.rootNode.descendantForIndex(edit.start, Math.max(edit.start, edit.end - 1));
  while (node && !(COMPOUND_TYPES.has(node.type) && node.startPosition.row < firstRow && node.endPosition.row >= lastRow)) {
    node = node.parent;
  }
  if (!node) return undefined;
  const start = source.lastIndexOf('\n', node.startIndex - 1) + 1;
  const newline = source.indexOf('\n', node.endIndex);
  const end = newline === -1 ? source.length : newline + 1;
  if (!/^[ \t]*$/.test(source.slice(start, node.startIndex))) return undefined;
  const prefix = ancestorHeaders(source, node);
  return prefix === undefined ? undefined : { prefix, start, end };
}

// One `if 1:` line per enclosing block, each at the indentation of the block's owner.
function ancestorHeaders(source: string, node: PyNode): string | undefined {
  const headers: string[] = [];
  for (let current = node.parent; current && current.type !== 'module'; current = current.parent) {
    if (current.type !== 'block') continue;
    const owner = current.parent;
    if (!owner) return undefined;
    const lineStart = source.lastIndexOf('\n', owner.startIndex - 1) + 1;
    const indent = /^[ \t]*/.exec(source.slice(lineStart, owner.startIndex))?.[0] ?? '';
    if (lineStart + indent.length !== owner.startIndex) return undefined;
    headers.unshift(`${indent}if 1:\n`);
  }
  return headers.join('');
}
