import { jsTokenSwap } from './js-token-swap.js';

/** `a && b` ↔ `a || b`. */
export const jsLogicalSwap = jsTokenSwap('js-logical-swap', 'Swap `&&` and `||`.', { '&&': ['||'], '||': ['&&'] }, 'logical');
