import type { PyNode } from '../../code/python/parse-python.js';
import type { MutationOperator } from '../mutation-operator.js';
import { deleteStatement } from '../line-edits.js';
import { insideFunction, isDocstring, statementsOf } from '../python-syntax.js';

const DELETABLE = new Set(['assignment', 'augmented_assignment', 'call', 'await']);

/**
 * Delete one assignment or call statement from a function-level block of at least three statements
 * (docstring not counted). An assignment to a local name goes only when the name was bound before
 * it: deleting a first binding leaves a NameError, not a behaviour bug.
 */
export const removeStatement: MutationOperator = {
  name: 'remove-statement',
  kind: 'removal',
  languages: ['python'],
  description: 'Delete an assignment or call statement from a block of three or more statements.',
  appliesTo: { nodeTypes: ['expression_statement'], maxLines: 10 },
  candidates(node, source) {
    const block = node.parent;
    const expression = node.namedChildren[0];
    // Module- and class-level statements are left alone: deleting one mostly leaves a NameError or
    // an AttributeError everywhere, not a behaviour bug.
    if (block?.type !== 'block' || !insideFunction(block) || node.namedChildCount !== 1 || !expression || !DELETABLE.has(expression.type)) return [];
    if (statementsOf(block).filter((statement) => !isDocstring(statement)).length < 3) return [];
    if (expression.type === 'assignment' && !rebindsOnly(expression)) return [];
    const firstLine = node.text.split('\n')[0] ?? '';
    const edit = deleteStatement(source, node, `delete the statement \`${firstLine}\``);
    return edit ? [edit] : [];
  },
};

// Whether every plain name the assignment binds was already bound earlier in its function.
function rebindsOnly(assignment: PyNode): boolean {
  const left = assignment.childForFieldName('left');
  if (!left) return false;
  const names = left.type === 'identifier' ? [left] : left.descendantsOfType('identifier').filter((id) => id.parent?.type !== 'attribute' && id.parent?.type !== 'subscript');
  if (names.length === 0) return true;
  let definition: PyNode | null = assignment;
  while (definition && definition.type !== 'function_definition') definition = definition.parent;
  if (!definition) return false;
  const bound = new Set<string>();
  for (const id of definition.descendantsOfType('identifier')) {
    if (id.startIndex >= assignment.startIndex) break;
    if (isBinding(id)) bound.add(id.text);
  }
  return names.every((name) => bound.has(name.text));
}

function isBinding(id: PyNode): boolean {
  const parent = id.parent;
  if (!parent) return false;
  if (parent.type === 'parameters' || /splat_pattern$/.test(parent.type)) return true;
  if (/parameter$/.test(parent.type)) return (parent.childForFieldName('name') ?? parent.firstNamedChild)?.id === id.id;
  if (parent.type === 'assignment' || parent.type === 'for_statement') return parent.childForFieldName('left')?.id === id.id;
  return parent.type === 'pattern_list' || parent.type === 'tuple_pattern';
}
