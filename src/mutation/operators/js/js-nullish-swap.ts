import type { JsNode } from '../../js-syntax.js';
import { jsTokenSwap } from './js-token-swap.js';

const LOGICAL = new Set(['&&', '||', '??']);

/** `a ?? b` ↔ `a || b`: the default then also replaces `0`, `''` and `false` (or stops replacing them). */
export const jsNullishSwap = jsTokenSwap('js-nullish-swap', 'Swap `??` and `||`.', { '??': ['||'], '||': ['??'] }, 'nullish', unmixed);

/**
 * `??` next to an unparenthesised `&&` / `||` is a SyntaxError that tree-sitter accepts
 * (`a ?? b || c`), so no swap is proposed where an operand or the parent is another logical operator.
 */
function unmixed(node: JsNode): boolean {
  const neighbours = [node.childForFieldName('left'), node.childForFieldName('right'), node.parent];
  return !neighbours.some((other) => other?.type === 'binary_expression' && LOGICAL.has(other.childForFieldName('operator')?.text ?? ''));
}
