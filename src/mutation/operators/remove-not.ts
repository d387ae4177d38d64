import type { MutationOperator, Replacement } from '../mutation-operator.js';
import { isConditionSlot } from '../python-syntax.js';

// Inner expressions that would regroup if their parentheses went while an `and`/`or` holds them.
const LOOSE_TYPES = new Set(['boolean_operator', 'not_operator', 'conditional_expression', 'lambda', 'named_expression']);

/**
 * `if not x:` → `if x:` in the same places `negate-condition` negates. For `not (expr)` it also
 * proposes `expr` unwrapped where that cannot regroup, so it undoes `negate-condition` exactly.
 */
export const removeNot: MutationOperator = {
  name: 'remove-not',
  kind: 'operator',
  description: 'Drop a `not` from a condition.',
  appliesTo: { nodeTypes: ['not_operator'] },
  candidates(node) {
    const argument = node.childForFieldName('argument');
    if (!argument || !isConditionSlot(node)) return [];
    const description = `remove \`not\` from \`${node.text}\``;
    const out: Replacement[] = [{ start: node.startIndex, end: node.endIndex, replacement: argument.text, description }];
    const inner = argument.type === 'parenthesized_expression' ? argument.namedChildren[0] : undefined;
    // Only an `if`/`elif` condition takes any expression; a ternary test or an `and`/`or` operand
    // would regroup or stop parsing.
    const ownsStatement = node.parent?.type === 'if_statement' || node.parent?.type === 'elif_clause';
    if (inner && argument.namedChildCount === 1 && (ownsStatement || !LOOSE_TYPES.has(inner.type))) {
      out.push({ start: node.startIndex, end: node.endIndex, replacement: inner.text, description });
    }
    return out;
  },
};
