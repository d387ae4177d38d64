import type { MutationOperator } from '../mutation-operator.js';
import { defaultReturn } from '../default-return.js';
import { indentOf, wholeLinesOf } from '../line-edits.js';
import { isDocstring, statementsOf } from '../python-syntax.js';

// Constructors emptied break every caller at once; abstract and overload stubs have no body to lose.
const SKIPPED_NAMES = new Set(['__init__', '__new__', '__init_subclass__', '__post_init__']);
const STUB_DECORATORS = /^@(\w+\.)*(abstractmethod|overload)\b/m;

/**
 * Replace a function's body with a plausible default (`return []`, `return 0`, `pass`, ...; see
 * `defaultReturn`), keeping the signature, decorators and docstring so the module still imports
 * and callers still run (method §7 removal).
 */
export const removeFunctionBody: MutationOperator = {
  name: 'remove-function-body',
  kind: 'removal',
  languages: ['python'],
  description: 'Replace a function body with a default return, keeping signature and docstring.',
  appliesTo: { nodeTypes: ['function_definition'], minLines: 3 },
  candidates(node, source) {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    if (!body || SKIPPED_NAMES.has(name) || STUB_DECORATORS.test(node.parent?.type === 'decorated_definition' ? node.parent.text : '')) return [];
    if (node.children.some((c) => c.type === 'async') && node.descendantsOfType('yield').length > 0) return [];
    const statements = statementsOf(body);
    const docstring = statements[0] && isDocstring(statements[0]) ? statements[0] : undefined;
    const code = docstring ? statements.slice(1) : statements;
    const first = code[0];
    const last = code.at(-1);
    // A one-line body is no "significant hunk"; a stub has nothing to lose.
    if (!first || !last || last.endPosition.row === first.startPosition.row) return [];
    const standIn = defaultReturn(node);
    const description = `replace the body of \`${name}\` with \`${standIn}\``;
    if (!docstring) {
      // Comment lines above the first statement describe the removed code: they go too.
      const lines = wholeLinesOf(source, first);
      return [lines
        ? { start: lines.start, end: body.endIndex, replacement: `${lines.indent}${standIn}`, description }
        : { start: body.startIndex, end: body.endIndex, replacement: standIn, description }];
    }
    const indent = indentOf(source, docstring);
    if (indent === undefined) return [];
    return [{ start: docstring.endIndex, end: body.endIndex, replacement: `\n${indent}${standIn}`, description }];
  },
};
