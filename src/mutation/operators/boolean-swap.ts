import type { MutationOperator } from '../mutation-operator.js';

/** `a and b` ↔ `a or b`. */
export const booleanSwap: MutationOperator = {
  name: 'boolean-swap',
  kind: 'operator',
  languages: ['python'],
  description: 'Swap `and` and `or`.',
  appliesTo: { nodeTypes: ['boolean_operator'] },
  candidates(node) {
    const token = node.childForFieldName('operator');
    if (!token) return [];
    const replacement = token.text === 'and' ? 'or' : 'and';
    return [{ start: token.startIndex, end: token.endIndex, replacement, description: `boolean \`${token.text}\` → \`${replacement}\`` }];
  },
};
