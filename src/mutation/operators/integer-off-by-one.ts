import type { PyNode } from '../../code/python/parse-python.js';
import type { SourceLanguage } from '../../code/source-language.js';
import type { MutationOperator, Replacement } from '../mutation-operator.js';

/** The node kinds that differ between grammars for {@link integerOffByOneFor}. */
export interface IntegerGrammar {
  name: string;
  languages: readonly SourceLanguage[];
  integer: string;
  unary: string;
  binary: string;
}

/** `x[1]` → `x[0]` / `x[2]`: ±1 on a decimal integer literal (never below zero), for one grammar. */
export function integerOffByOneFor(grammar: IntegerGrammar): MutationOperator {
  // `-1` → `-0` and `i + 1` → `i + 0` read as nonsense rather than as a bug.
  const zeroIsNoise = (node: PyNode): boolean => {
    const parent = node.parent;
    if (parent?.type === grammar.unary) return true;
    if (parent?.type !== grammar.binary || parent.childForFieldName('right')?.id !== node.id) return false;
    return ['+', '-'].includes(parent.childForFieldName('operator')?.text ?? '');
  };
  return {
    name: grammar.name,
    kind: 'operator',
    languages: grammar.languages,
    description: 'Add or subtract one from an integer literal.',
    appliesTo: { nodeTypes: [grammar.integer] },
    candidates(node) {
      // Decimal integers only: hex, exponents, `1_000`, `10n` and floats keep their spelling.
      if (!/^(0|[1-9][0-9]*)$/.test(node.text)) return [];
      const value = BigInt(node.text);
      const out: Replacement[] = [];
      for (const next of [value + 1n, value - 1n]) {
        if (next < 0n || (next === 0n && zeroIsNoise(node))) continue;
        out.push({ start: node.startIndex, end: node.endIndex, replacement: next.toString(), description: `integer ${node.text} → ${next}` });
      }
      return out;
    },
  };
}

export const integerOffByOne = integerOffByOneFor({ name: 'integer-off-by-one', languages: ['python'], integer: 'integer', unary: 'unary_operator', binary: 'binary_operator' });
