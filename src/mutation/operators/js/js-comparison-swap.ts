import { jsTokenSwap } from './js-token-swap.js';

/** `a < b` → `a <= b` / `a >= b`, `===` ↔ `!==`, `==` ↔ `!=` (`===` ↔ `==` is `js-loose-equality`'s). */
export const jsComparisonSwap = jsTokenSwap('js-comparison-swap', 'Swap a comparison operator for a boundary or negated one.', {
  '<': ['<=', '>='],
  '<=': ['<', '>'],
  '>': ['>=', '<='],
  '>=': ['>', '<'],
  '===': ['!=='],
  '!==': ['==='],
  '==': ['!='],
  '!=': ['=='],
}, 'comparison');
