import { JS_LANGUAGES } from '../../../code/source-language.js';
import { jsDefaultReturn } from '../../js-default-return.js';
import { jsStatementsOf, type JsNode } from '../../js-syntax.js';
import { lineStartOf } from '../../line-edits.js';
import type { MutationOperator } from '../../mutation-operator.js';

const FUNCTIONS = ['function_declaration', 'function_expression', 'arrow_function', 'method_definition', 'generator_function_declaration', 'generator_function'];
// Constructors emptied break every caller at once.
const SKIPPED_NAMES = new Set(['constructor']);

/**
 * Replace a JS/TS function or method body with a default return (`return [];`, `return 0;`, an
 * empty body for one that returns nothing; see `jsDefaultReturn`), keeping the signature and the
 * JSDoc above it, so callers still run but the behaviour is gone (method §7 removal). The comments
 * inside the body go with it (they described the removed code).
 */
export const jsRemoveFunctionBody: MutationOperator = {
  name: 'js-remove-function-body',
  kind: 'removal',
  languages: JS_LANGUAGES,
  description: 'Replace a function or method body with a default return, keeping signature and JSDoc.',
  appliesTo: { nodeTypes: FUNCTIONS, minLines: 3 },
  candidates(node, source) {
    const name = node.childForFieldName('name')?.text ?? nameOfHolder(node);
    const body = node.childForFieldName('body');
    if (body?.type !== 'statement_block' || SKIPPED_NAMES.has(name)) return [];
    const statements = jsStatementsOf(body);
    const first = statements[0];
    const last = statements.at(-1);
    // A one-line body is no "significant hunk".
    if (!first || !last || last.endPosition.row === first.startPosition.row) return [];
    const closeLine = lineStartOf(source, body.endIndex - 1);
    const outer = source.slice(closeLine, body.endIndex - 1);
    const firstPrefix = source.slice(lineStartOf(source, first.startIndex), first.startIndex);
    if (!/^[ \t]*$/.test(outer) || !/^[ \t]*$/.test(firstPrefix)) return [];
    const generator = node.type.startsWith('generator') || node.children.some((child) => child.type === '*');
    const standIn = generator ? '' : jsDefaultReturn(node, jsDocOf(node));
    const replacement = standIn === '' ? '{}' : `{\n${firstPrefix}return ${standIn};\n${outer}}`;
    const shown = standIn === '' ? 'an empty body' : `\`return ${standIn};\``;
    return [{ start: body.startIndex, end: body.endIndex, replacement, description: `replace the body of \`${name}\` with ${shown}` }];
  },
};

/** The name a function expression is bound to (`const f = () => {}`, `f: function () {}`), or `<anonymous>`. */
function nameOfHolder(node: JsNode): string {
  const parent = node.parent;
  if (parent?.type === 'variable_declarator') return parent.childForFieldName('name')?.text ?? '<anonymous>';
  if (parent?.type === 'pair') return parent.childForFieldName('key')?.text ?? '<anonymous>';
  if (parent?.type === 'assignment_expression') return parent.childForFieldName('left')?.text ?? '<anonymous>';
  return '<anonymous>';
}

/** The `/** … *\/` comment right above the function (or above the declaration or export holding it). */
function jsDocOf(node: JsNode): string | undefined {
  let current: JsNode | null = node;
  for (let depth = 0; current && depth < 4; depth++, current = current.parent) {
    const previous = current.previousNamedSibling;
    if (previous?.type === 'comment') return previous.text.startsWith('/**') ? previous.text : undefined;
    if (previous || !current.parent || current.parent.type === 'program' || current.parent.type === 'class_body') break;
  }
  return undefined;
}
