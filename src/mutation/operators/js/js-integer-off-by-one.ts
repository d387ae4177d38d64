import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator, Replacement } from '../../mutation-operator.js';
import type { JsNode } from '../../js-syntax.js';

/** `x[1]` → `x[0]` / `x[2]`: ±1 on a decimal integer literal (never below zero). */
export const jsIntegerOffByOne: MutationOperator = {
  name: 'js-integer-off-by-one',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Add or subtract one from an integer literal.',
  appliesTo: { nodeTypes: ['number'] },
  candidates(node) {
    // Decimal integers only: `0x1f`, `1e3`, `1_000`, `10n` and floats keep their spelling.
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

// `-1` → `-0` and `i + 1` → `i + 0` read as nonsense rather than as a bug.
function zeroIsNoise(node: JsNode): boolean {
  const parent = node.parent;
  if (parent?.type === 'unary_expression') return true;
  if (parent?.type !== 'binary_expression' || parent.childForFieldName('right')?.id !== node.id) return false;
  return ['+', '-'].includes(parent.childForFieldName('operator')?.text ?? '');
}
