import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator, Replacement } from '../../mutation-operator.js';
import { isJsPrimary, type JsNode } from '../../js-syntax.js';

const SLICING = new Set(['slice', 'substring', 'substr', 'subarray']);
const RELATIONAL = new Set(['<', '<=', '>', '>=']);
// `E + 1` groups as `(E) + 1` for these without parentheses, so stripping the `+ 1` again is exact.
const TIGHTER = new Set(['*', '/', '%', '**']);

/**
 * Off-by-one on bounds: the arguments of `.slice` / `.substring` / `.substr` / `.subarray`, and the
 * bound a `for` loop's condition compares against (`i < xs.length` → `i < xs.length - 1`).
 * `E` → `E + 1` / `E - 1`, `E ± 1` → `E`. Literal bounds are `js-integer-off-by-one`'s.
 */
export const jsBoundOffByOne: MutationOperator = {
  name: 'js-bound-off-by-one',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Shift a slice/substring bound or a for-loop bound by one, or drop a `± 1` from it.',
  appliesTo: { nodeTypes: ['call_expression', 'for_statement'] },
  candidates(node) {
    return boundsOf(node).flatMap(shift);
  },
};

function boundsOf(node: JsNode): JsNode[] {
  if (node.type === 'for_statement') {
    const condition = node.childForFieldName('condition');
    if (condition?.type !== 'binary_expression' || !RELATIONAL.has(condition.childForFieldName('operator')?.text ?? '')) return [];
    const right = condition.childForFieldName('right');
    return right ? [right] : [];
  }
  const callee = node.childForFieldName('function');
  if (callee?.type !== 'member_expression' || !SLICING.has(callee.childForFieldName('property')?.text ?? '')) return [];
  const args = node.childForFieldName('arguments')?.namedChildren.filter((arg) => arg.type !== 'comment') ?? [];
  return args.length <= 2 && !args.some((arg) => arg.type === 'spread_element') ? args : [];
}

function shift(bound: JsNode): Replacement[] {
  const at = { start: bound.startIndex, end: bound.endIndex };
  const left = plusMinusOneLeft(bound);
  if (left) return offsettable(left) ? [{ ...at, replacement: left.text, description: `bound \`${bound.text}\` → \`${left.text}\`` }] : [];
  if (!offsettable(bound)) return [];
  return ['+ 1', '- 1'].map((offset) => ({ ...at, replacement: `${bound.text} ${offset}`, description: `bound \`${bound.text}\` → \`${bound.text} ${offset}\`` }));
}

/** `E` of a bound `E + 1` / `E - 1`. */
function plusMinusOneLeft(bound: JsNode): JsNode | undefined {
  if (bound.type !== 'binary_expression') return undefined;
  const op = bound.childForFieldName('operator')?.text;
  const right = bound.childForFieldName('right');
  return (op === '+' || op === '-') && right?.type === 'number' && right.text === '1' ? (bound.childForFieldName('left') ?? undefined) : undefined;
}

function offsettable(bound: JsNode): boolean {
  if (bound.type === 'number' || bound.type === 'string' || bound.type === 'template_string') return false;
  if (bound.type === 'unary_expression' && /^-\s*\d+$/.test(bound.text)) return false;
  if (bound.type === 'unary_expression' || isJsPrimary(bound)) return true;
  return bound.type === 'binary_expression' && TIGHTER.has(bound.childForFieldName('operator')?.text ?? '');
}
