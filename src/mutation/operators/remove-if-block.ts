import type { MutationOperator } from '../mutation-operator.js';
import { deleteStatement } from '../line-edits.js';

/** Delete a whole `if` statement with all its branches; one alone in its block becomes `pass`. */
export const removeIfBlock: MutationOperator = {
  name: 'remove-if-block',
  kind: 'removal',
  languages: ['python'],
  description: 'Delete an if statement with all its branches.',
  appliesTo: { nodeTypes: ['if_statement'], maxLines: 40 },
  candidates(node, source) {
    const edit = deleteStatement(source, node, `delete the \`if ${node.childForFieldName('condition')?.text ?? ''}\` block`);
    return edit ? [edit] : [];
  },
};
