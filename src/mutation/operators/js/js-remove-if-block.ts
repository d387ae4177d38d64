import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';
import { deleteJsStatement } from '../../js-syntax.js';

/** Delete a whole `if` statement with all its branches (not an `else if`: that is `js-remove-else-branch`'s). */
export const jsRemoveIfBlock: MutationOperator = {
  name: 'js-remove-if-block',
  kind: 'removal',
  languages: JS_LANGUAGES,
  description: 'Delete an if statement with all its branches.',
  appliesTo: { nodeTypes: ['if_statement'], maxLines: 40 },
  candidates(node, source) {
    if (node.parent?.type === 'else_clause') return [];
    return [deleteJsStatement(source, node, `delete the \`if ${node.childForFieldName('condition')?.text ?? ''}\` block`)];
  },
};
