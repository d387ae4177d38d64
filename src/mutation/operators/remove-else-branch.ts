import type { MutationOperator, Replacement } from '../mutation-operator.js';
import { wholeLinesOf } from '../line-edits.js';

/** Delete one `elif` or `else` branch of an `if` statement. */
export const removeElseBranch: MutationOperator = {
  name: 'remove-else-branch',
  kind: 'operator',
  languages: ['python'],
  description: 'Delete an `elif` or `else` branch of an if statement.',
  appliesTo: { nodeTypes: ['if_statement'] },
  candidates(node, source) {
    const out: Replacement[] = [];
    for (const clause of node.childrenForFieldName('alternative')) {
      const lines = wholeLinesOf(source, clause);
      if (!lines) continue;
      const header = clause.type === 'elif_clause' ? `elif ${clause.childForFieldName('condition')?.text ?? ''}` : 'else';
      out.push({ start: lines.start, end: lines.end, replacement: '', description: `delete the \`${header}\` branch of \`if ${node.childForFieldName('condition')?.text ?? ''}\`` });
    }
    return out;
  },
};
