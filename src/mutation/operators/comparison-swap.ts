import type { MutationOperator, Replacement } from '../mutation-operator.js';

// Symmetric by construction (stryker's EqualityOperator, plus Python's identity and membership
// tests): every swap's inverse is in the table, so the same operator also repairs it.
const SWAPS: Record<string, readonly string[]> = {
  '<': ['<=', '>='],
  '<=': ['<', '>'],
  '>': ['>=', '<='],
  '>=': ['>', '<'],
  '==': ['!='],
  '!=': ['=='],
  is: ['is not'],
  'is not': ['is'],
  in: ['not in'],
  'not in': ['in'],
};

/** `a < b` → `a <= b` / `a >= b`, `==` ↔ `!=`, `is` ↔ `is not`, `in` ↔ `not in`. */
export const comparisonSwap: MutationOperator = {
  name: 'comparison-swap',
  kind: 'operator',
  languages: ['python'],
  description: 'Swap a comparison operator for a boundary or negated one.',
  appliesTo: { nodeTypes: ['comparison_operator'] },
  candidates(node) {
    const out: Replacement[] = [];
    // Operands are named children; the operators between them are the anonymous ones.
    for (const token of node.children) {
      if (token.isNamed) continue;
      const op = token.text.replace(/\s+/g, ' ');
      for (const replacement of SWAPS[op] ?? []) {
        out.push({ start: token.startIndex, end: token.endIndex, replacement, description: `comparison \`${op}\` → \`${replacement}\`` });
      }
    }
    return out;
  },
};
