import type { PyNode } from '../../code/python/parse-python.js';
import type { MutationOperator, Replacement } from '../mutation-operator.js';
import { isPrimary, ternaryParts } from '../python-syntax.js';

// Operands worth negating; a literal or an already negated operand (`remove-not`'s job) is not.
const NEGATABLE = new Set(['identifier', 'attribute', 'call', 'subscript', 'parenthesized_expression', 'comparison_operator', 'await']);

/**
 * `if x:` → `if not x:` for the condition of an `if`/`elif` or the test of a conditional
 * expression: the whole of it, and each leaf operand of its `and`/`or` tree. Non-primary operands
 * are parenthesised: `not (a < b)`. `while` is left out on purpose: negating a loop condition
 * mostly yields a hang, which costs a whole test timeout and teaches nothing.
 */
export const negateCondition: MutationOperator = {
  name: 'negate-condition',
  kind: 'operator',
  description: 'Negate an `if`/`elif` condition, one of its `and`/`or` operands, or a ternary test.',
  appliesTo: { nodeTypes: ['if_statement', 'elif_clause', 'conditional_expression'] },
  candidates(node) {
    const condition = node.type === 'conditional_expression' ? ternaryParts(node)?.test : node.childForFieldName('condition');
    if (!condition) return [];
    // A whole `and`/`or` is negated at its root only: negating the inner `a and b` of
    // `a and b and c` would regroup it.
    const targets = condition.type === 'boolean_operator' ? [condition, ...leaves(condition)] : [condition];
    return targets.filter((target) => target.type === 'boolean_operator' || NEGATABLE.has(target.type)).map(negate);
  },
};

function leaves(node: PyNode): PyNode[] {
  if (node.type !== 'boolean_operator') return [node];
  return [node.childForFieldName('left'), node.childForFieldName('right')].flatMap((side) => (side ? leaves(side) : []));
}

function negate(node: PyNode): Replacement {
  const replacement = isPrimary(node) ? `not ${node.text}` : `not (${node.text})`;
  return { start: node.startIndex, end: node.endIndex, replacement, description: `negate condition \`${node.text}\`` };
}
