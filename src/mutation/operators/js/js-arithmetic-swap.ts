import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';

// Symmetric, like Python's table; `%` and `^` have no partner that keeps it so.
const SWAPS: Readonly<Record<string, readonly string[]>> = {
  '+': ['-'],
  '-': ['+'],
  '*': ['/', '**'],
  '/': ['*'],
  '**': ['*'],
  '<<': ['>>'],
  '>>': ['<<'],
  '&': ['|'],
  '|': ['&'],
};

// `'a' + b` → `'a' - b` gives NaN everywhere: a crash in disguise, not a plausible bug.
const TEXT_LITERALS = new Set(['string', 'template_string', 'array', 'object']);

/** `a + b` ↔ `a - b`, `*` ↔ `/`, `*` ↔ `**`, `<<` ↔ `>>`, `&` ↔ `|`, and the same on `+=`-style assignments. */
export const jsArithmeticSwap: MutationOperator = {
  name: 'js-arithmetic-swap',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Swap an arithmetic or bitwise operator (also in an augmented assignment).',
  appliesTo: { nodeTypes: ['binary_expression', 'augmented_assignment_expression'] },
  candidates(node) {
    const token = node.childForFieldName('operator');
    const operands = [node.childForFieldName('left'), node.childForFieldName('right')];
    if (!token || operands.some((operand) => !operand || TEXT_LITERALS.has(operand.type))) return [];
    const augmented = node.type === 'augmented_assignment_expression';
    const op = augmented ? token.text.slice(0, -1) : token.text;
    return (SWAPS[op] ?? []).map((swapped) => {
      const replacement = augmented ? `${swapped}=` : swapped;
      return { start: token.startIndex, end: token.endIndex, replacement, description: `arithmetic \`${token.text}\` → \`${replacement}\`` };
    });
  },
};
