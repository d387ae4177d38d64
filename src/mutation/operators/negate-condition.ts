import type { PyNode } from '../../code/python/parse-python.js';
import type { MutationOperator, Replacement } from '../mutation-operator.js';
import { isPrimary, ternaryParts } from '../python-syntax.js';

// Operands worth negating; a literal or an already negated operand (`remove-not`'s job) is not.
const NEGATABLE = new Set(['identifier', 'attribute', 'call', 'subscript', 'parenthesized_expression', 'comparison_operator', 'await']);

const DESCRIPTION = 'Negate an `if`/`elif` condition, one of its `and`/`or` operands, or a ternary test.';

/**
 * `if x:` → `if not x:` for the condition of an `if`/`elif` or the test of a conditional
 * expression: the whole of it, and each leaf operand of its `and`/`or` tree. Non-primary operands
 * are parenthesised: `not (a < b)`. `while` is left out on purpose: negating a loop condition
 * mostly yields a hang, which costs a whole test timeout and teaches nothing.
 */
export const negateCondition: MutationOperator = conditionNegator(false);

/**
 * The same operator for repairs only (the Injector never draws it): it negates any operand but a
 * negated one (`if -x:`, `if a + b:`, `if 0:`), so that it puts back whatever `remove-not` removed.
 * It spells one negation per operand, parenthesised unless primary: where the original read
 * `not a < b`, the repair `not (a < b)` is the same code (the mutated text cannot tell which), and
 * trying both spellings would cost the Solver a test run for nothing.
 */
export const negateConditionForRepair: MutationOperator = conditionNegator(true);

function conditionNegator(anyOperand: boolean): MutationOperator {
  return {
    name: 'negate-condition',
    kind: 'operator',
    languages: ['python'],
    description: DESCRIPTION,
    appliesTo: { nodeTypes: ['if_statement', 'elif_clause', 'conditional_expression'] },
    candidates(node) {
      const condition = node.type === 'conditional_expression' ? ternaryParts(node)?.test : node.childForFieldName('condition');
      if (!condition) return [];
      // A whole `and`/`or` is negated at its root only: negating the inner `a and b` of
      // `a and b and c` would regroup it.
      const targets = condition.type === 'boolean_operator' ? [condition, ...leaves(condition)] : [condition];
      const negatable = (target: PyNode) => (anyOperand ? target.type !== 'not_operator' : target.type === 'boolean_operator' || NEGATABLE.has(target.type));
      return targets.filter(negatable).map(negate);
    },
  };
}

function leaves(node: PyNode): PyNode[] {
  if (node.type !== 'boolean_operator') return [node];
  return [node.childForFieldName('left'), node.childForFieldName('right')].flatMap((side) => (side ? leaves(side) : []));
}

function negate(node: PyNode): Replacement {
  const replacement = isPrimary(node) ? `not ${node.text}` : `not (${node.text})`;
  return { start: node.startIndex, end: node.endIndex, replacement, description: `negate condition \`${node.text}\`` };
}
