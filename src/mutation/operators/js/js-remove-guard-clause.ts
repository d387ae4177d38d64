import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';
import { deleteJsStatement, insideJsFunction, jsStatementsOf, type JsNode } from '../../js-syntax.js';

const EXITS = new Set(['return_statement', 'throw_statement']);

/** Delete an early-exit guard of a function: `if (cond) return x;` / `if (cond) { throw e; }` with code after it. */
export const jsRemoveGuardClause: MutationOperator = {
  name: 'js-remove-guard-clause',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Delete an early `return`/`throw` guard clause.',
  appliesTo: { nodeTypes: ['if_statement'], maxLines: 6 },
  candidates(node, source) {
    const exit = exitOf(node.childForFieldName('consequence'));
    if (!exit || node.childForFieldName('alternative')) return [];
    const block = node.parent;
    if (block?.type !== 'statement_block' || !insideJsFunction(block) || jsStatementsOf(block).at(-1)?.id === node.id) return [];
    const word = exit.type === 'return_statement' ? 'return' : 'throw';
    return [deleteJsStatement(source, node, `delete the \`${word}\` guard \`if ${node.childForFieldName('condition')?.text ?? ''}\``)];
  },
};

function exitOf(consequence: JsNode | null): JsNode | undefined {
  if (!consequence) return undefined;
  const body = consequence.type === 'statement_block' ? jsStatementsOf(consequence) : [consequence];
  return body.length === 1 && EXITS.has(body[0]!.type) ? body[0] : undefined;
}
