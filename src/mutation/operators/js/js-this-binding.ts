import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';
import type { JsNode } from '../../js-syntax.js';

/**
 * Wrong `this` binding: `this.onTick.bind(this)` → `this.onTick` (the method later runs with
 * `this` undefined), and an arrow function that uses `this` → a `function` expression (which gets
 * its own `this`): `items.map((x) => this.scale * x)` → `items.map(function (x) { return this.scale * x; })`.
 */
export const jsThisBinding: MutationOperator = {
  name: 'js-this-binding',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Drop a `.bind(this)`, or turn an arrow function that uses `this` into a function expression.',
  appliesTo: { nodeTypes: ['call_expression', 'arrow_function'] },
  candidates(node) {
    if (node.type === 'call_expression') {
      const callee = node.childForFieldName('function');
      const args = node.childForFieldName('arguments')?.namedChildren.filter((child) => child.type !== 'comment') ?? [];
      const bound = callee?.type === 'member_expression' && callee.childForFieldName('property')?.text === 'bind' ? callee.childForFieldName('object') : null;
      if (!bound || args.length !== 1 || args[0]?.type !== 'this') return [];
      return [{ start: node.startIndex, end: node.endIndex, replacement: bound.text, description: `drop \`.bind(this)\` from \`${bound.text}\`` }];
    }
    const replacement = asFunctionExpression(node);
    return replacement ? [{ start: node.startIndex, end: node.endIndex, replacement, description: 'arrow function → `function` expression (own `this`)' }] : [];
  },
};

function asFunctionExpression(arrow: JsNode): string | undefined {
  const body = arrow.childForFieldName('body');
  if (!body || !usesOwnThis(body)) return undefined;
  const single = arrow.childForFieldName('parameter');
  const params = single ? `(${single.text})` : arrow.childForFieldName('parameters')?.text;
  if (params === undefined) return undefined;
  const async = arrow.children.some((child) => child.type === 'async') ? 'async ' : '';
  const typeParams = arrow.childForFieldName('type_parameters')?.text ?? '';
  const returnType = arrow.childForFieldName('return_type')?.text ?? '';
  const block = body.type === 'statement_block' ? body.text : `{ return ${body.text}; }`;
  return `${async}function ${typeParams}${params}${returnType} ${block}`;
}

// Whether `this` appears in the body outside functions and classes nested in it (they bind their own).
function usesOwnThis(node: JsNode): boolean {
  if (node.type === 'this') return true;
  if (/^(function|generator_function|method_definition|class)/.test(node.type)) return false;
  return node.namedChildren.some(usesOwnThis);
}
