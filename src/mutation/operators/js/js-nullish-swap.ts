import { jsTokenSwap } from './js-token-swap.js';

/** `a ?? b` ↔ `a || b`: the default then also replaces `0`, `''` and `false` (or stops replacing them). */
export const jsNullishSwap = jsTokenSwap('js-nullish-swap', 'Swap `??` and `||`.', { '??': ['||'], '||': ['??'] }, 'nullish');
