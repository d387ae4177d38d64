import type { MutationOperator } from './mutation-operator.js';
import { arithmeticSwap } from './operators/arithmetic-swap.js';
import { augmentedAssignmentSwap } from './operators/augmented-assignment-swap.js';
import { booleanSwap } from './operators/boolean-swap.js';
import { boundOffByOne } from './operators/bound-off-by-one.js';
import { comparisonSwap } from './operators/comparison-swap.js';
import { constantChange } from './operators/constant-change.js';
import { integerOffByOne } from './operators/integer-off-by-one.js';
import { invertIfElse } from './operators/invert-if-else.js';
import { jsComparisonSwap } from './operators/js/js-comparison-swap.js';
import { jsLooseEquality } from './operators/js/js-loose-equality.js';
import { jsLogicalSwap } from './operators/js/js-logical-swap.js';
import { jsNullishSwap } from './operators/js/js-nullish-swap.js';
import { jsNegateCondition } from './operators/js/js-negate-condition.js';
import { jsRemoveNot } from './operators/js/js-remove-not.js';
import { jsArithmeticSwap } from './operators/js/js-arithmetic-swap.js';
import { jsIntegerOffByOne } from './operators/js/js-integer-off-by-one.js';
import { jsBoundOffByOne } from './operators/js/js-bound-off-by-one.js';
import { jsSwapArguments } from './operators/js/js-swap-arguments.js';
import { jsDropAwait } from './operators/js/js-drop-await.js';
import { jsOptionalChaining } from './operators/js/js-optional-chaining.js';
import { jsCopiedArray } from './operators/js/js-copied-array.js';
import { jsThisBinding } from './operators/js/js-this-binding.js';
import { jsRemoveElseBranch } from './operators/js/js-remove-else-branch.js';
import { jsRemoveGuardClause } from './operators/js/js-remove-guard-clause.js';
import { jsRemoveIfBlock } from './operators/js/js-remove-if-block.js';
import { jsRemoveFunctionBody } from './operators/js/js-remove-function-body.js';
import { jsRemoveStatement } from './operators/js/js-remove-statement.js';
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
 * edit, the earlier one keeps it). Cheap in-place swaps first, removals last. Each operator
 * declares its languages; a query sees only those of its module's language (Python first, then
 * the JavaScript / TypeScript ones).
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
  jsComparisonSwap,
  jsLooseEquality,
  jsLogicalSwap,
  jsNullishSwap,
  jsNegateCondition,
  jsRemoveNot,
  jsArithmeticSwap,
  jsIntegerOffByOne,
  jsBoundOffByOne,
  jsSwapArguments,
  jsDropAwait,
  jsOptionalChaining,
  jsCopiedArray,
  jsThisBinding,
  jsRemoveElseBranch,
  jsRemoveGuardClause,
  jsRemoveIfBlock,
  jsRemoveFunctionBody,
  jsRemoveStatement,
];
