import { JS_LANGUAGES } from '../../../code/source-language.js';
import { deleteJsStatement, insideJsFunction, jsStatementsOf } from '../../js-syntax.js';
import type { MutationOperator } from '../../mutation-operator.js';

// Effects a statement can be deleted for; declarations stay (deleting one leaves a ReferenceError, not a behaviour bug).
const DELETABLE = new Set(['assignment_expression', 'augmented_assignment_expression', 'call_expression', 'await_expression', 'update_expression']);

/**
 * Delete one assignment, update or call statement (`total += x;`, `this.count++;`, `cache.set(k, v);`)
 * from a function-level block of at least three statements. A `super(...)` call stays: deleting it
 * makes every `this` throw, not a behaviour bug.
 */
export const jsRemoveStatement: MutationOperator = {
  name: 'js-remove-statement',
  kind: 'removal',
  languages: JS_LANGUAGES,
  description: 'Delete an assignment, update or call statement from a block of three or more statements.',
  appliesTo: { nodeTypes: ['expression_statement'], maxLines: 10 },
  candidates(node, source) {
    const block = node.parent;
    const expression = node.namedChildren.find((child) => child.type !== 'comment');
    if (block?.type !== 'statement_block' || !insideJsFunction(block) || !expression || !DELETABLE.has(expression.type)) return [];
    if (jsStatementsOf(block).length < 3) return [];
    if (expression.type === 'call_expression' && expression.childForFieldName('function')?.type === 'super') return [];
    const firstLine = node.text.split('\n')[0] ?? '';
    return [deleteJsStatement(source, node, `delete the statement \`${firstLine}\``)];
  },
};
