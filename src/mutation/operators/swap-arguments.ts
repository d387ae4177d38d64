import type { MutationOperator, Replacement } from '../mutation-operator.js';

// Only plain positional arguments can trade places without changing the call's shape.
const NOT_POSITIONAL = new Set(['keyword_argument', 'list_splat', 'dictionary_splat', 'comment', 'parenthesized_list_splat']);

/** `f(a, b)` → `f(b, a)`: swap two neighbouring positional arguments. */
export const swapArguments: MutationOperator = {
  name: 'swap-arguments',
  kind: 'operator',
  languages: ['python'],
  description: 'Swap two neighbouring positional arguments of a call.',
  appliesTo: { nodeTypes: ['call'] },
  candidates(node, source) {
    const list = node.childForFieldName('arguments');
    if (list?.type !== 'argument_list') return [];
    const args = list.namedChildren.filter((arg) => arg.type !== 'comment');
    const out: Replacement[] = [];
    for (let i = 0; i + 1 < args.length; i++) {
      const [a, b] = [args[i]!, args[i + 1]!];
      if (NOT_POSITIONAL.has(a.type) || NOT_POSITIONAL.has(b.type) || a.text === b.text) continue;
      const between = source.slice(a.endIndex, b.startIndex);
      out.push({
        start: a.startIndex,
        end: b.endIndex,
        replacement: `${b.text}${between}${a.text}`,
        description: `swap arguments \`${a.text}\` and \`${b.text}\` of \`${node.childForFieldName('function')?.text ?? 'call'}\``,
      });
    }
    return out;
  },
};
