import type { MutationOperator } from './mutation-operator.js';
import { arithmeticSwap } from './operators/arithmetic-swap.js';
import { augmentedAssignmentSwap } from './operators/augmented-assignment-swap.js';
import { booleanSwap } from './operators/boolean-swap.js';
import { boundOffByOne } from './operators/bound-off-by-one.js';
import { comparisonSwap } from './operators/comparison-swap.js';
import { constantChange } from './operators/constant-change.js';
import { integerOffByOne } from './operators/integer-off-by-one.js';
import { invertIfElse } from './operators/invert-if-else.js';
import { negateCondition } from './operators/negate-condition.js';
import { removeElseBranch } from './operators/remove-else-branch.js';
import { removeFunctionBody } from './operators/remove-function-body.js';
import { removeGuardClause } from './operators/remove-guard-clause.js';
import { removeIfBlock } from './operators/remove-if-block.js';
import { removeLoop } from './operators/remove-loop.js';
import { removeNot } from './operators/remove-not.js';
import { removeStatement } from './operators/remove-statement.js';
import { stringLiteral } from './operators/string-literal.js';
import { swapArguments } from './operators/swap-arguments.js';

/**
 * Every mutation operator, in the order ties are broken in (when two operators propose the same
 * edit, the earlier one keeps it). Cheap in-place swaps first, removals last.
 */
export const MUTATION_OPERATORS: readonly MutationOperator[] = [
  comparisonSwap,
  booleanSwap,
  negateCondition,
  removeNot,
  arithmeticSwap,
  augmentedAssignmentSwap,
  integerOffByOne,
  boundOffByOne,
  swapArguments,
  constantChange,
  stringLiteral,
  invertIfElse,
  removeElseBranch,
  removeGuardClause,
  removeFunctionBody,
  removeLoop,
  removeStatement,
  removeIfBlock,
];
