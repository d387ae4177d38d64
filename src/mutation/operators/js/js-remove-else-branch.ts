import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator } from '../../mutation-operator.js';

/** `if (a) {…} else {…}` → `if (a) {…}`; an `else if` chain loses its tail from that `else` on. */
export const jsRemoveElseBranch: MutationOperator = {
  name: 'js-remove-else-branch',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Delete the `else` (or `else if`) branch of an if statement.',
  appliesTo: { nodeTypes: ['if_statement'] },
  candidates(node) {
    const consequence = node.childForFieldName('consequence');
    const alternative = node.childForFieldName('alternative');
    // `if (a) x(); else y();`: the text between is only `;`/space, so cutting from the consequence's end is exact.
    if (!consequence || !alternative) return [];
    const inner = alternative.namedChildren.find((child) => child.type !== 'comment');
    const header = inner?.type === 'if_statement' ? `else if ${inner.childForFieldName('condition')?.text ?? ''}` : 'else';
    return [{
      start: consequence.endIndex,
      end: alternative.endIndex,
      replacement: '',
      description: `delete the \`${header}\` branch of \`if ${node.childForFieldName('condition')?.text ?? ''}\``,
    }];
  },
};
