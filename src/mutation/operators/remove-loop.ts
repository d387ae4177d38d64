import type { MutationOperator } from '../mutation-operator.js';
import { deleteStatement } from '../line-edits.js';

/** Delete a whole `for` / `while` loop (with its `else`); a loop alone in its block becomes `pass`. */
export const removeLoop: MutationOperator = {
  name: 'remove-loop',
  kind: 'removal',
  languages: ['python'],
  description: 'Delete a loop.',
  appliesTo: { nodeTypes: ['for_statement', 'while_statement'], maxLines: 40 },
  candidates(node, source) {
    const header = (node.text.split('\n')[0] ?? '').replace(/:\s*(#.*)?$/, '');
    const edit = deleteStatement(source, node, `delete the loop \`${header}\``);
    return edit ? [edit] : [];
  },
};
