import type { PyNode } from '../code/python/parse-python.js';

// Expressions that bind tighter than any operator, so `not X` or `X + 1` needs no parentheses.
const PRIMARY_TYPES = new Set([
  'identifier', 'attribute', 'call', 'subscript', 'parenthesized_expression', 'integer', 'float', 'string',
  'concatenated_string', 'true', 'false', 'none', 'list', 'tuple', 'dictionary', 'set', 'list_comprehension',
  'dictionary_comprehension', 'set_comprehension', 'generator_expression', 'await',
]);

export function isPrimary(node: PyNode): boolean {
  return PRIMARY_TYPES.has(node.type);
}

/** The named, non-comment children of a block: its statements. */
export function statementsOf(block: PyNode): PyNode[] {
  return block.namedChildren.filter((child) => child.type !== 'comment');
}

/** Whether a statement is a docstring: a lone string as the first statement of a body or module. */
export function isDocstring(statement: PyNode): boolean {
  if (statement.type !== 'expression_statement' || statement.namedChildCount !== 1) return false;
  if (statement.namedChildren[0]?.type !== 'string') return false;
  const parent = statement.parent;
  return !!parent && (parent.type === 'block' || parent.type === 'module') && statementsOf(parent)[0]?.id === statement.id;
}

/** The three parts of a conditional expression `body if test else orelse` (they carry no field names). */
export function ternaryParts(node: PyNode): { body: PyNode; test: PyNode; orelse: PyNode } | undefined {
  const [body, test, orelse] = node.namedChildren.filter((child) => child.type !== 'comment');
  return body && test && orelse ? { body, test, orelse } : undefined;
}

/**
 * Whether a node is the condition of an `if`/`elif`, the test of a conditional expression, or
 * inside the `and`/`or` tree of one.
 */
export function isConditionSlot(node: PyNode): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === 'if_statement' || parent.type === 'elif_clause') return parent.childForFieldName('condition')?.id === node.id;
  if (parent.type === 'conditional_expression') return ternaryParts(parent)?.test.id === node.id;
  if (parent.type === 'boolean_operator') return isConditionSlot(parent);
  return false;
}

const GUARD_CONDITION = /^(__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__|(typing\.)?TYPE_CHECKING)$/;

/**
 * Code no operator should touch because breaking it breaks everything or nothing: the body of
 * `if __name__ == "__main__"` and `if TYPE_CHECKING`, decorators, type annotations, and
 * module metadata such as `__all__` and `__version__`.
 */
export function isExempt(node: PyNode): boolean {
  for (let current: PyNode | null = node; current; current = current.parent) {
    if (current.type === 'decorator' || current.type === 'type') return true;
    if (current.type === 'if_statement' && GUARD_CONDITION.test(current.childForFieldName('condition')?.text ?? '')) return true;
    if (current.type === 'assignment' && /^__\w+__$/.test(current.childForFieldName('left')?.text ?? '')) return true;
  }
  return false;
}

/** Whether a node is inside a function body (and not inside a class nested in it). */
export function insideFunction(node: PyNode): boolean {
  for (let current: PyNode | null = node; current; current = current.parent) {
    if (current.type === 'function_definition') return true;
    if (current.type === 'class_definition') return false;
  }
  return false;
}
