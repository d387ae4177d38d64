import type { PyNode } from '../code/python/parse-python.js';
import type { Replacement } from './mutation-operator.js';
import { lineEndOf, lineStartOf } from './line-edits.js';

/** A node of a parsed JavaScript / TypeScript module (the same binding type as Python's). */
export type JsNode = PyNode;

// Expressions that bind tighter than any unary or binary operator, so `!X` or `X + 1` needs no parentheses.
const PRIMARY_TYPES = new Set([
  'identifier', 'member_expression', 'subscript_expression', 'call_expression', 'parenthesized_expression', 'this',
  'number', 'string', 'template_string', 'true', 'false', 'null', 'undefined', 'array', 'object',
]);

export function isJsPrimary(node: JsNode): boolean {
  return PRIMARY_TYPES.has(node.type);
}

/** `X`, parenthesised unless primary: what an operator may put next to a unary or binary operator. */
export function tight(node: JsNode): string {
  return isJsPrimary(node) ? node.text : `(${node.text})`;
}

// Types only exist at compile time: mutating them changes nothing a test can see, or breaks the build.
const EXEMPT_TYPES = new Set([
  'type_annotation', 'type_arguments', 'type_parameters', 'type_alias_declaration', 'interface_declaration',
  'ambient_declaration', 'decorator', 'import_statement', 'enum_declaration',
]);

/** Code no JS/TS operator should touch: types, decorators, imports and enum declarations. */
export function isJsExempt(node: JsNode): boolean {
  for (let current: JsNode | null = node; current; current = current.parent) {
    if (EXEMPT_TYPES.has(current.type)) return true;
  }
  return false;
}

const FUNCTION_TYPES = new Set(['function_declaration', 'function_expression', 'arrow_function', 'method_definition', 'generator_function_declaration', 'generator_function']);

/** Whether a node is inside a function or method body. */
export function insideJsFunction(node: JsNode): boolean {
  for (let current: JsNode | null = node.parent; current; current = current.parent) {
    if (FUNCTION_TYPES.has(current.type)) return true;
    if (current.type === 'class_body') return false;
  }
  return false;
}

/** The named, non-comment children of a `statement_block`: its statements. */
export function jsStatementsOf(block: JsNode): JsNode[] {
  return block.namedChildren.filter((child) => child.type !== 'comment');
}

/**
 * Whether a node is the condition of an `if`, the test of a ternary, or inside the `&&`/`||` tree
 * of one. An `if` condition is a `parenthesized_expression`; its inner expression counts.
 */
export function isJsConditionSlot(node: JsNode): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === 'parenthesized_expression' && parent.parent?.type === 'if_statement') return parent.parent.childForFieldName('condition')?.id === parent.id;
  if (parent.type === 'ternary_expression') return parent.childForFieldName('condition')?.id === node.id;
  if (parent.type === 'binary_expression' && ['&&', '||'].includes(parent.childForFieldName('operator')?.text ?? '')) return isJsConditionSlot(parent);
  return false;
}

/**
 * Delete a statement with its whole lines and the `//` comment lines right above it (a comment that
 * described deleted code would be a hint), or just its text when other code shares its lines.
 * An emptied JS block stays valid, so nothing replaces it.
 */
export function deleteJsStatement(source: string, statement: JsNode, description: string): Replacement {
  const lineStart = lineStartOf(source, statement.startIndex);
  const indent = source.slice(lineStart, statement.startIndex);
  const lineEnd = lineEndOf(source, statement.endIndex);
  if (!/^[ \t]*$/.test(indent) || !/^[ \t]*(\/\/.*)?$/.test(source.slice(statement.endIndex, lineEnd))) {
    return { start: statement.startIndex, end: statement.endIndex, replacement: '', description };
  }
  let start = lineStart;
  while (start > 0) {
    const previous = lineStartOf(source, start - 1);
    if (!source.slice(previous, start - 1).startsWith(`${indent}//`)) break;
    start = previous;
  }
  return { start, end: Math.min(lineEnd + 1, source.length), replacement: '', description };
}
