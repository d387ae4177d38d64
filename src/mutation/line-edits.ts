import type { PyNode } from '../code/python/parse-python.js';
import type { Replacement } from './mutation-operator.js';
import { statementsOf } from './python-syntax.js';

export function lineStartOf(source: string, index: number): number {
  return source.lastIndexOf('\n', index - 1) + 1;
}

/** 0-based row of a string index. */
export function rowOf(source: string, index: number): number {
  let row = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) row += 1;
  return row;
}

/** Index of the newline ending the line that holds `index`, or the source length. */
export function lineEndOf(source: string, index: number): number {
  const end = source.indexOf('\n', index);
  return end === -1 ? source.length : end;
}

/** The whitespace before a node on its first line, or undefined when code precedes it there. */
export function indentOf(source: string, node: PyNode): string | undefined {
  const prefix = source.slice(lineStartOf(source, node.startIndex), node.startIndex);
  return /^[ \t]*$/.test(prefix) ? prefix : undefined;
}

/**
 * The whole lines of a node plus the comment lines directly above it at its indentation (a comment
 * that described deleted code would be a hint to the Solver). Undefined when other code shares
 * the node's first or last line.
 */
export function wholeLinesOf(source: string, node: PyNode): { start: number; end: number; indent: string } | undefined {
  const indent = indentOf(source, node);
  const lineEnd = lineEndOf(source, node.endIndex);
  if (indent === undefined || !/^[ \t]*(#.*)?$/.test(source.slice(node.endIndex, lineEnd))) return undefined;
  const start = attachedCommentsStart(source, lineStartOf(source, node.startIndex), indent);
  return { start, end: Math.min(lineEnd + 1, source.length), indent };
}

/**
 * Delete a statement with its whole lines (see {@link wholeLinesOf}). A statement that is alone in
 * its block becomes `pass` so the block stays valid. Undefined when the statement shares a line
 * with other code (`a = 1; b = 2`, `if x: return`) and is not alone.
 */
export function deleteStatement(source: string, statement: PyNode, description: string): Replacement | undefined {
  const block = statement.parent;
  const alone = !!block && statementsOf(block).length === 1;
  const lines = wholeLinesOf(source, statement);
  if (!lines) return alone ? { start: statement.startIndex, end: statement.endIndex, replacement: 'pass', description } : undefined;
  return { start: lines.start, end: lines.end, replacement: alone ? `${lines.indent}pass\n` : '', description };
}

// Walks up over comment lines at exactly this indentation with no blank line in between.
function attachedCommentsStart(source: string, lineStart: number, indent: string): number {
  let start = lineStart;
  while (start > 0) {
    const previous = lineStartOf(source, start - 1);
    const line = source.slice(previous, start - 1);
    if (!line.startsWith(`${indent}#`)) break;
    start = previous;
  }
  return start;
}
