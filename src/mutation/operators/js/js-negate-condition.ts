import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';
import { isJsConditionSlot, tight, type JsNode } from '../../js-syntax.js';

// Operands worth negating; a literal or an already negated one (`js-remove-not`'s job) is not.
const NEGATABLE = new Set(['identifier', 'member_expression', 'subscript_expression', 'call_expression', 'parenthesized_expression', 'binary_expression', 'await_expression']);

/**
 * `if (x)` → `if (!x)` for the condition of an `if` or the test of a ternary: the whole of it, and
 * each leaf operand of its `&&`/`||` tree; non-primary operands are parenthesised: `!(a < b)`.
 * Loop conditions are left alone: a negated loop condition mostly hangs.
 */
export const jsNegateCondition: MutationOperator = {
  name: 'js-negate-condition',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Negate an `if` condition, one of its `&&`/`||` operands, or a ternary test.',
  appliesTo: { nodeTypes: [...NEGATABLE] },
  candidates(node) {
    if (!isJsConditionSlot(node) || !negatable(node)) return [];
    const replacement = `!${tight(node)}`;
    return [{ start: node.startIndex, end: node.endIndex, replacement, description: `negate \`${node.text}\` → \`${replacement}\`` }];
  },
};

function negatable(node: JsNode): boolean {
  if (node.type !== 'binary_expression') return true;
  // A `&&`/`||` node is negated only as the whole condition; its leaves are negated one by one.
  const logical = ['&&', '||'].includes(node.childForFieldName('operator')?.text ?? '');
  return !logical || node.parent?.type !== 'binary_expression';
}
