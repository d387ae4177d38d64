import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';
import { isJsConditionSlot } from '../../js-syntax.js';

/** `if (!x)` → `if (x)`, `!(a < b) ? p : q` → `(a < b) ? p : q`, in the places `js-negate-condition` negates. */
export const jsRemoveNot: MutationOperator = {
  name: 'js-remove-not',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Drop a `!` from a condition.',
  appliesTo: { nodeTypes: ['unary_expression'] },
  candidates(node) {
    const argument = node.childForFieldName('argument');
    if (node.childForFieldName('operator')?.text !== '!' || !argument || !isJsConditionSlot(node)) return [];
    // `!!x` is a cast to boolean, not a negation.
    if (argument.type === 'unary_expression' && argument.childForFieldName('operator')?.text === '!') return [];
    return [{ start: node.startIndex, end: node.endIndex, replacement: argument.text, description: `remove \`!\` from \`${node.text}\`` }];
  },
};
