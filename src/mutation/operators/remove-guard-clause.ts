import type { MutationOperator } from '../mutation-operator.js';
import { deleteStatement } from '../line-edits.js';
import { insideFunction, statementsOf } from '../python-syntax.js';

const EXITS = new Set(['return_statement', 'raise_statement']);

/** Delete an early-exit guard of a function: `if cond: return X` / `if cond: raise E` with code after it. */
export const removeGuardClause: MutationOperator = {
  name: 'remove-guard-clause',
  kind: 'operator',
  languages: ['python'],
  description: 'Delete an early `return`/`raise` guard clause.',
  appliesTo: { nodeTypes: ['if_statement'], maxLines: 6 },
  candidates(node, source) {
    const consequence = node.childForFieldName('consequence');
    const body = consequence ? statementsOf(consequence) : [];
    if (node.childrenForFieldName('alternative').length > 0 || body.length !== 1 || !EXITS.has(body[0]!.type)) return [];
    const block = node.parent;
    if (!block || block.type !== 'block' || !insideFunction(block) || statementsOf(block).at(-1)?.id === node.id) return [];
    const exit = body[0]!.type === 'return_statement' ? 'return' : 'raise';
    const edit = deleteStatement(source, node, `delete the \`${exit}\` guard \`if ${node.childForFieldName('condition')?.text ?? ''}\``);
    return edit ? [edit] : [];
  },
};
