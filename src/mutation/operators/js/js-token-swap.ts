import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';

/**
 * An operator that swaps the operator token of a binary expression by a fixed, symmetric table
 * (each swap's inverse is in it, so the operator also repairs what it breaks). A swap that leaves
 * `a ?? b || c` (mixing `??` with `||` unparenthesised is a SyntaxError) is dropped by the engine's
 * re-parse check.
 */
export function jsTokenSwap(name: string, description: string, swaps: Readonly<Record<string, readonly string[]>>, label: string): MutationOperator {
  return {
    name,
    kind: 'operator',
    languages: JS_LANGUAGES,
    description,
    appliesTo: { nodeTypes: ['binary_expression'] },
    candidates(node) {
      const token = node.childForFieldName('operator');
      if (!token) return [];
      return (swaps[token.text] ?? []).map((replacement) => ({
        start: token.startIndex,
        end: token.endIndex,
        replacement,
        description: `${label} \`${token.text}\` → \`${replacement}\``,
      }));
    },
  };
}
