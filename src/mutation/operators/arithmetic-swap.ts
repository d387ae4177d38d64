import type { MutationOperator } from '../mutation-operator.js';

/**
 * Symmetric swaps (each one's inverse is in the table, so the operator also repairs itself).
 * `%` and `^` are left out: their only plausible partners would make the table asymmetric.
 */
export const ARITHMETIC_SWAPS: Readonly<Record<string, readonly string[]>> = {
  '+': ['-'],
  '-': ['+'],
  '*': ['/', '**'],
  '/': ['*', '//'],
  '//': ['/'],
  '**': ['*'],
  '<<': ['>>'],
  '>>': ['<<'],
  '&': ['|'],
  '|': ['&'],
};

// `"a" + b` → `"a" - b` only ever raises TypeError: a crash, not a plausible bug.
export const CONTAINER_LITERALS = new Set([
  'string', 'concatenated_string', 'list', 'tuple', 'dictionary', 'set', 'list_comprehension',
  'dictionary_comprehension', 'set_comprehension',
]);

/** `a + b` ↔ `a - b`, `*` ↔ `/`, `/` ↔ `//`, `*` ↔ `**`, `<<` ↔ `>>`, `&` ↔ `|`. */
export const arithmeticSwap: MutationOperator = {
  name: 'arithmetic-swap',
  kind: 'operator',
  languages: ['python'],
  description: 'Swap an arithmetic or bitwise operator.',
  appliesTo: { nodeTypes: ['binary_operator'] },
  candidates(node) {
    const token = node.childForFieldName('operator');
    const operands = [node.childForFieldName('left'), node.childForFieldName('right')];
    if (!token || operands.some((operand) => !operand || CONTAINER_LITERALS.has(operand.type))) return [];
    return (ARITHMETIC_SWAPS[token.text] ?? []).map((replacement) => ({
      start: token.startIndex,
      end: token.endIndex,
      replacement,
      description: `arithmetic \`${token.text}\` → \`${replacement}\``,
    }));
  },
};
