import { JS_LANGUAGES } from '../../../code/source-language.js';
import { integerOffByOneFor } from '../integer-off-by-one.js';

/** `x[1]` → `x[0]` / `x[2]` on JS/TS number literals (decimal integers only). */
export const jsIntegerOffByOne = integerOffByOneFor({ name: 'js-integer-off-by-one', languages: JS_LANGUAGES, integer: 'number', unary: 'unary_expression', binary: 'binary_expression' });
