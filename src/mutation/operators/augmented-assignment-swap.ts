import type { MutationOperator } from '../mutation-operator.js';
import { ARITHMETIC_SWAPS, CONTAINER_LITERALS } from './arithmetic-swap.js';

/** `x += n` ↔ `x -= n`, and the other swaps of `arithmetic-swap` on their `op=` forms. */
export const augmentedAssignmentSwap: MutationOperator = {
  name: 'augmented-assignment-swap',
  kind: 'operator',
  languages: ['python'],
  description: 'Swap the operator of an augmented assignment (`+=` ↔ `-=`, ...).',
  appliesTo: { nodeTypes: ['augmented_assignment'] },
  candidates(node) {
    const token = node.childForFieldName('operator');
    const right = node.childForFieldName('right');
    if (!token || !right || CONTAINER_LITERALS.has(right.type)) return [];
    const op = token.text.slice(0, -1);
    return (ARITHMETIC_SWAPS[op] ?? []).map((swapped) => ({
      start: token.startIndex,
      end: token.endIndex,
      replacement: `${swapped}=`,
      description: `augmented assignment \`${token.text}\` → \`${swapped}=\``,
    }));
  },
};
