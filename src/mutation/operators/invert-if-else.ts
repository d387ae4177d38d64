import type { PyNode } from '../../code/python/parse-python.js';
import type { MutationOperator } from '../mutation-operator.js';
import { ternaryParts } from '../python-syntax.js';

/**
 * Swap the branches of an `if`/`else` (no `elif`) or of a conditional expression, keeping the
 * condition: `if c: A else: B` → `if c: B else: A`, `a if c else b` → `b if c else a`.
 */
export const invertIfElse: MutationOperator = {
  name: 'invert-if-else',
  kind: 'operator',
  languages: ['python'],
  description: 'Swap the two branches of an if/else or of a conditional expression.',
  appliesTo: { nodeTypes: ['if_statement', 'conditional_expression'] },
  candidates(node, source) {
    const pair = node.type === 'if_statement' ? statementBranches(node) : ternaryBranches(node);
    if (!pair || pair[0].text === pair[1].text) return [];
    const [first, second] = pair;
    const between = source.slice(first.endIndex, second.startIndex);
    const description = node.type === 'if_statement'
      ? `swap the if/else branches of \`if ${node.childForFieldName('condition')?.text ?? ''}\``
      : `swap the branches of \`${node.text}\``;
    return [{ start: first.startIndex, end: second.endIndex, replacement: `${second.text}${between}${first.text}`, description }];
  },
};

function statementBranches(node: PyNode): [PyNode, PyNode] | undefined {
  const alternatives = node.childrenForFieldName('alternative');
  const consequence = node.childForFieldName('consequence');
  const elseBody = alternatives.length === 1 && alternatives[0]?.type === 'else_clause' ? alternatives[0].childForFieldName('body') : null;
  if (!consequence || !elseBody) return undefined;
  // Both blocks must sit at the same place relative to their headers (both inline or both on
  // their own lines), or the moved text would land at the wrong indentation.
  const inline = (block: PyNode) => block.startPosition.row === block.parent?.startPosition.row;
  return inline(consequence) === inline(elseBody) ? [consequence, elseBody] : undefined;
}

function ternaryBranches(node: PyNode): [PyNode, PyNode] | undefined {
  const parts = ternaryParts(node);
  // A lambda or a nested conditional would swallow what follows it once moved to the front.
  const loose = (part: PyNode) => part.type === 'lambda' || part.type === 'conditional_expression';
  return parts && !loose(parts.body) && !loose(parts.orelse) ? [parts.body, parts.orelse] : undefined;
}
