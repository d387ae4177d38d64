import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator, Replacement } from '../../mutation-operator.js';
import { tight, type JsNode } from '../../js-syntax.js';

// Array methods that change the array they are called on.
const IN_PLACE = new Set(['sort', 'reverse', 'fill', 'copyWithin', 'splice']);
// ES2023's copying twins of the in-place methods.
const COPYING: Readonly<Record<string, string>> = { toSorted: 'sort', toReversed: 'reverse', toSpliced: 'splice' };

/**
 * Mutated vs copied arrays: the copy before an in-place method is dropped, so the caller's array
 * changes under it. `[...a].sort()` → `a.sort()`, `a.slice().reverse()` → `a.reverse()`,
 * `Array.from(a).fill(0)` → `a.fill(0)`, `a.toSorted(f)` → `a.sort(f)`.
 */
export const jsCopiedArray: MutationOperator = {
  name: 'js-copied-array',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Drop the copy of an array before an in-place method (or use the in-place twin of a copying one).',
  appliesTo: { nodeTypes: ['call_expression'] },
  candidates(node) {
    const callee = node.childForFieldName('function');
    const property = callee?.type === 'member_expression' ? callee.childForFieldName('property') : null;
    const object = callee?.childForFieldName('object');
    if (!property || !object) return [];
    // Own keys only: `x.toString()` would otherwise find Object.prototype.toString as its "twin".
    const twin = Object.hasOwn(COPYING, property.text) ? COPYING[property.text] : undefined;
    if (twin) return [{ start: property.startIndex, end: property.endIndex, replacement: twin, description: `\`${property.text}\` → in-place \`${twin}\`` }];
    if (!IN_PLACE.has(property.text)) return [];
    const original = copiedFrom(object);
    if (!original) return [];
    const edit: Replacement = { start: object.startIndex, end: object.endIndex, replacement: tight(original), description: `mutate \`${tight(original)}\` in place instead of the copy \`${object.text}\`` };
    return [edit];
  },
};

/** The array a copying expression copies: `[...a]`, `a.slice()`, `a.concat()`, `Array.from(a)`. */
function copiedFrom(expression: JsNode): JsNode | undefined {
  if (expression.type === 'array') {
    const items = expression.namedChildren.filter((child) => child.type !== 'comment');
    const spread = items.length === 1 && items[0]?.type === 'spread_element' ? items[0] : undefined;
    return spread?.namedChildren.find((child) => child.type !== 'comment');
  }
  if (expression.type !== 'call_expression') return undefined;
  const callee = expression.childForFieldName('function');
  const args = expression.childForFieldName('arguments')?.namedChildren.filter((child) => child.type !== 'comment') ?? [];
  if (callee?.type !== 'member_expression') return undefined;
  const method = callee.childForFieldName('property')?.text;
  const object = callee.childForFieldName('object') ?? undefined;
  if ((method === 'slice' || method === 'concat') && args.length === 0) return object;
  if (method === 'from' && object?.text === 'Array' && args.length === 1) return args[0];
  return undefined;
}
