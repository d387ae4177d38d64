import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';
import type { JsNode } from '../../js-syntax.js';

const CHAINED = ['member_expression', 'subscript_expression', 'call_expression'];
// Places where `a?.b` is a SyntaxError or means something else entirely.
// Objects that can be null or undefined at all (`[…]?.map` is noise).
const NULLABLE_OBJECTS = new Set(['identifier', 'member_expression', 'subscript_expression', 'call_expression', 'parenthesized_expression']);
const WRITE_PARENTS = new Set(['assignment_expression', 'augmented_assignment_expression', 'update_expression', 'new_expression']);

/**
 * Optional chaining removed (`a?.b` → `a.b`, `a?.[i]` → `a[i]`, `f?.()` → `f()`: a TypeError on
 * null) or added to a property read (`a.b` → `a?.b`: undefined flows on where a throw was due).
 * Additions skip `this`, literals, capitalised namespaces (`Math.max`, `JSON.parse`) and writes.
 */
export const jsOptionalChaining: MutationOperator = {
  name: 'js-optional-chaining',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Remove an optional chain `?.`, or add one to a property read.',
  appliesTo: { nodeTypes: CHAINED },
  candidates(node) {
    const chain = node.childForFieldName('optional_chain');
    if (chain) {
      // `a?.[i]` and `f?.()` lose the whole `?.`; `a?.b` keeps a `.`.
      const replacement = node.type === 'member_expression' ? '.' : '';
      return [{ start: chain.startIndex, end: chain.endIndex, replacement, description: `remove optional chaining from \`${node.text}\`` }];
    }
    if (node.type !== 'member_expression' || !addable(node)) return [];
    const object = node.childForFieldName('object')!;
    const dot = node.children.find((child) => child.type === '.' && child.startIndex >= object.endIndex);
    if (!dot) return [];
    return [{ start: dot.startIndex, end: dot.endIndex, replacement: '?.', description: `add optional chaining to \`${node.text}\`` }];
  },
};

function addable(node: JsNode): boolean {
  const object = node.childForFieldName('object');
  if (!object || !NULLABLE_OBJECTS.has(object.type) || /^[A-Z]/.test(object.text)) return false;
  if (node.childForFieldName('property')?.type === 'private_property_identifier') return false;
  // tree-sitter accepts `a?.b.c = 1` and `new a?.b()`, JavaScript does not: judge the whole chain.
  const top = chainTop(node);
  const parent = top.parent;
  if (!parent || WRITE_PARENTS.has(parent.type)) return false;
  if (parent.type === 'unary_expression' && parent.childForFieldName('operator')?.text === 'delete') return false;
  // Destructuring targets, `for (a.b of …)` and tagged templates (`a?.b\`x\``) are SyntaxErrors too.
  return !/pattern|for_in_statement/.test(parent.type) && top.childForFieldName('arguments')?.type !== 'template_string';
}

/** The outermost expression of the chain a member expression is a link of (`a.b` in `a.b.c(d)[0]`: all of it). */
function chainTop(node: JsNode): JsNode {
  let current = node;
  for (let parent = current.parent; parent; parent = current.parent) {
    const link = parent.childForFieldName(parent.type === 'call_expression' ? 'function' : 'object');
    if (!CHAINED.includes(parent.type) || link?.id !== current.id) break;
    current = parent;
  }
  return current;
}
