import { JS_LANGUAGES } from '../../../code/source-language.js';
import type { MutationOperator, Replacement } from '../../mutation-operator.js';

/** `f(a, b)` → `f(b, a)`: swap two neighbouring arguments of a call (or of `new`). */
export const jsSwapArguments: MutationOperator = {
  name: 'js-swap-arguments',
  kind: 'operator',
  languages: JS_LANGUAGES,
  description: 'Swap two neighbouring arguments of a call.',
  appliesTo: { nodeTypes: ['call_expression', 'new_expression'] },
  candidates(node, source) {
    const list = node.childForFieldName('arguments');
    if (list?.type !== 'arguments') return [];
    const args = list.namedChildren.filter((arg) => arg.type !== 'comment');
    const callee = node.childForFieldName(node.type === 'new_expression' ? 'constructor' : 'function')?.text ?? 'call';
    const out: Replacement[] = [];
    for (let i = 0; i + 1 < args.length; i++) {
      const [a, b] = [args[i]!, args[i + 1]!];
      // A spread takes a variable number of places: moving it shifts every later argument too.
      if (a.type === 'spread_element' || b.type === 'spread_element' || a.text === b.text) continue;
      const between = source.slice(a.endIndex, b.startIndex);
      out.push({ start: a.startIndex, end: b.endIndex, replacement: `${b.text}${between}${a.text}`, description: `swap arguments \`${a.text}\` and \`${b.text}\` of \`${callee}\`` });
    }
    return out;
  },
};
