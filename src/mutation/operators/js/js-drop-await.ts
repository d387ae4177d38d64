import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';

/**
 * `await save(x)` → `save(x)`: the forgotten `await`. The caller then holds a Promise (always
 * truthy, never equal to the value) and a rejection goes unhandled; ordering bugs follow.
 */
export const jsDropAwait: MutationOperator = {
  name: 'js-drop-await',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Drop an `await`.',
  appliesTo: { nodeTypes: ['await_expression'] },
  candidates(node) {
    const argument = node.namedChildren.find((child) => child.type !== 'comment');
    if (!argument) return [];
    return [{ start: node.startIndex, end: argument.startIndex, replacement: '', description: `drop \`await\` before \`${argument.text}\`` }];
  },
};
