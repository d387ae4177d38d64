import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';
import type { JsNode } from '../../js-syntax.js';

/**
 * An operator that swaps the operator token of a binary expression by a fixed, symmetric table
 * (each swap's inverse is in it, so the operator also repairs what it breaks), where `applies`
 * holds for the expression.
 */
export function jsTokenSwap(
  name: string,
  description: string,
  swaps: Readonly<Record<string, readonly string[]>>,
  label: string,
  applies: (node: JsNode) => boolean = () => true,
): MutationOperator {
  return {
    name,
    kind: 'operator',
    languages: JS_LANGUAGES,
    description,
    appliesTo: { nodeTypes: ['binary_expression'] },
    candidates(node) {
      const token = node.childForFieldName('operator');
      if (!token || !applies(node)) return [];
      return (swaps[token.text] ?? []).map((replacement) => ({
        start: token.startIndex,
        end: token.endIndex,
        replacement,
        description: `${label} \`${token.text}\` → \`${replacement}\``,
      }));
    },
  };
}
