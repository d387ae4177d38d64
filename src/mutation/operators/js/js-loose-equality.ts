import { jsTokenSwap } from './js-token-swap.js';

/** `a === b` ↔ `a == b`, `a !== b` ↔ `a != b`: strict vs loose equality (`0 == ''`, `null == undefined`). */
export const jsLooseEquality = jsTokenSwap(
  'js-loose-equality',
  'Swap strict and loose equality (`===` ↔ `==`, `!==` ↔ `!=`).',
  { '===': ['=='], '==': ['==='], '!==': ['!='], '!=': ['!=='] },
  'equality',
);
