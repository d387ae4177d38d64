import type { PyNode } from '../../code/python/parse-python.js';
import type { MutationOperator, Replacement } from '../mutation-operator.js';
import { isPrimary } from '../python-syntax.js';

// `E + 1` groups as `(E) + 1` for these without parentheses, so stripping the `+ 1` again is exact.
const OFFSETTABLE_OPERATORS = new Set(['+', '-', '*', '/', '//', '%', '**', '@']);
// A subscript is shifted only when its index reads as a position: `items[i]`, `row[idx]`,
// `xs[len(xs) - 1]`, not `mapping[key]`, where ±1 is a TypeError rather than a bug.
const INDEX_NAME = /^(i|j|k|n|m|idx|index|pos|position|start|end|stop|offset|cursor|lo|hi|mid|low|high|first|last|size|count|length)$|_(idx|index|pos|start|end|offset|count|len)$/i;

const DESCRIPTION = 'Shift a range/slice bound or an index by one, or drop a `± 1` from it.';

/**
 * Off-by-one on bounds: the start/stop of `range(...)` and of slices, and a single subscript index.
 * `E` → `E + 1` / `E - 1`, and `E ± 1` → `E` (only where `E + 1` could be proposed again, so
 * {@link boundOffByOneForRepair} can undo every drop). Literal bounds are `integer-off-by-one`'s.
 */
export const boundOffByOne: MutationOperator = boundOperator(false);

/**
 * The same operator for repairs only (the Injector never draws it): it also shifts a subscript
 * whose index does not read as a position (`items[cut]`, `table[row.slot]`, `xs[a * b]`), because
 * `items[cut - 1]` → `items[cut]` is a drop the Injector does make. As a bug, `mapping[key + 1]`
 * would mostly be a TypeError, which is why the Injector's operator keeps to position names.
 */
export const boundOffByOneForRepair: MutationOperator = boundOperator(true);

function boundOperator(anyIndex: boolean): MutationOperator {
  return {
    name: 'bound-off-by-one',
    kind: 'operator',
    languages: ['python'],
    description: DESCRIPTION,
    appliesTo: { nodeTypes: ['call', 'slice', 'subscript'] },
    candidates(node) {
      return boundsOf(node, anyIndex).flatMap((bound) => shift(bound));
    },
  };
}

function boundsOf(node: PyNode, anyIndex: boolean): PyNode[] {
  if (node.type === 'call') {
    if (node.childForFieldName('function')?.text !== 'range') return [];
    const args = node.childForFieldName('arguments')?.namedChildren.filter((c) => c.type !== 'comment') ?? [];
    if (args.length === 0 || args.length > 3 || args.some((a) => /splat|keyword_argument/.test(a.type))) return [];
    return args.length === 1 ? args : args.slice(0, 2);
  }
  if (node.type === 'slice') {
    // slice: [start] ':' [stop] [':' [step]]; the children carry no field names.
    const bounds: PyNode[] = [];
    let colons = 0;
    for (const child of node.children) {
      if (child.type === ':') colons += 1;
      else if (child.isNamed && child.type !== 'comment' && colons < 2) bounds.push(child);
    }
    return bounds;
  }
  const indices = node.childrenForFieldName('subscript');
  const value = node.childForFieldName('value');
  // `List[int]` at run time is a type, not an index.
  if (indices.length !== 1 || !value || /^[A-Z]/.test(value.text)) return [];
  return indices.filter((index) => (anyIndex ? !/["']/.test(index.text) : isPositional(index)));
}

function shift(bound: PyNode): Replacement[] {
  const at = { start: bound.startIndex, end: bound.endIndex };
  const left = plusMinusOneLeft(bound);
  if (left) return offsettable(left) ? [{ ...at, replacement: left.text, description: `bound \`${bound.text}\` → \`${left.text}\`` }] : [];
  if (!offsettable(bound)) return [];
  return ['+ 1', '- 1'].map((offset) => ({ ...at, replacement: `${bound.text} ${offset}`, description: `bound \`${bound.text}\` → \`${bound.text} ${offset}\`` }));
}

/** `E` of a bound `E + 1` / `E - 1`. */
function plusMinusOneLeft(bound: PyNode): PyNode | undefined {
  if (bound.type !== 'binary_operator') return undefined;
  const op = bound.childForFieldName('operator')?.text;
  const right = bound.childForFieldName('right');
  return (op === '+' || op === '-') && right?.type === 'integer' && right.text === '1' ? (bound.childForFieldName('left') ?? undefined) : undefined;
}

/** Whether `E + 1` / `E - 1` is worth proposing for a bound `E` and strips back to `E` exactly. */
function offsettable(bound: PyNode): boolean {
  if (bound.type === 'integer' || bound.type === 'string' || /^-\s*\d+$/.test(bound.text)) return false;
  if (bound.type === 'unary_operator' || isPrimary(bound)) return true;
  if (bound.type !== 'binary_operator') return false;
  const op = bound.childForFieldName('operator')?.text ?? '';
  // `i + 2` ± 1 is `integer-off-by-one`'s (`i + 3`, `i + 1`).
  if ((op === '+' || op === '-') && bound.childForFieldName('right')?.type === 'integer') return false;
  return OFFSETTABLE_OPERATORS.has(op);
}

function isPositional(index: PyNode): boolean {
  if (index.type === 'identifier') return INDEX_NAME.test(index.text);
  if (index.type === 'attribute') return INDEX_NAME.test(index.childForFieldName('attribute')?.text ?? '');
  if (index.type === 'call') return index.childForFieldName('function')?.text === 'len';
  if (index.type !== 'binary_operator') return false;
  return ['+', '-', '//'].includes(index.childForFieldName('operator')?.text ?? '') && !index.text.includes('"') && !index.text.includes("'");
}
