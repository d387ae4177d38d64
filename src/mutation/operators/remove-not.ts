import type { PyNode } from '../../code/python/parse-python.js';
import type { MutationOperator, Replacement } from '../mutation-operator.js';
import { isConditionSlot, isPrimary } from '../python-syntax.js';

// Inner expressions that would regroup or stop parsing without their parentheses: as an `and`/`or`
// operand, and as the test of a conditional expression (which takes `and`/`or`, not these).
const LOOSE_IN_BOOLEAN = new Set(['boolean_operator', 'conditional_expression', 'lambda', 'named_expression']);
const LOOSE_IN_TERNARY_TEST = new Set(['conditional_expression', 'lambda', 'named_expression']);

/**
 * `if not x:` → `if x:` in the same places `negate-condition` negates. For `not (expr)` it also
 * proposes `expr` unwrapped where that cannot regroup, so it undoes `negate-condition` exactly;
 * not for a primary `expr`, where `(x)` is the same bug.
 */
export const removeNot: MutationOperator = {
  name: 'remove-not',
  kind: 'operator',
  languages: ['python'],
  description: 'Drop a `not` from a condition.',
  appliesTo: { nodeTypes: ['not_operator'] },
  candidates(node) {
    const argument = node.childForFieldName('argument');
    if (!argument || !isConditionSlot(node)) return [];
    const description = `remove \`not\` from \`${node.text}\``;
    const out: Replacement[] = [{ start: node.startIndex, end: node.endIndex, replacement: argument.text, description }];
    const inner = argument.type === 'parenthesized_expression' && argument.namedChildCount === 1 ? argument.namedChildren[0] : undefined;
    if (inner && !isPrimary(inner) && fitsUnwrapped(inner, node)) {
      out.push({ start: node.startIndex, end: node.endIndex, replacement: inner.text, description });
    }
    return out;
  },
};

/** Whether `inner` can stand without parentheses where the `not` stands. */
function fitsUnwrapped(inner: PyNode, not: PyNode): boolean {
  const slot = not.parent?.type;
  // An `if`/`elif` condition takes any expression.
  if (slot === 'if_statement' || slot === 'elif_clause') return true;
  if (slot === 'conditional_expression') return !LOOSE_IN_TERNARY_TEST.has(inner.type);
  return !LOOSE_IN_BOOLEAN.has(inner.type);
}
