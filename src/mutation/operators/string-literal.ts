import type { PyNode } from '../../code/python/parse-python.js';
import type { MutationOperator } from '../mutation-operator.js';

// Docstrings and messages of raised errors, asserts and log calls are rarely what a test checks.
const MESSAGE_STATEMENTS = new Set(['raise_statement', 'assert_statement']);
const LOG_CALL = /(^|\.)(log|debug|info|warning|warn|error|exception|critical|print)$/;

/** `""` → `" "`, and a short single-line string → empty (prefix and quotes kept). */
export const stringLiteral: MutationOperator = {
  name: 'string-literal',
  kind: 'operator',
  languages: ['python'],
  description: 'Empty a short string literal, or make an empty one non-empty.',
  appliesTo: { nodeTypes: ['string'], maxLines: 1 },
  candidates(node) {
    const open = node.firstChild;
    const close = node.lastChild;
    if (open?.type !== 'string_start' || close?.type !== 'string_end') return [];
    // f-strings, triple quotes and implicit concatenation are left alone.
    if (/f|'''|"""/i.test(open.text) || node.namedChildren.some((c) => c.type === 'interpolation')) return [];
    if (node.parent?.type === 'concatenated_string' || isMessage(node)) return [];
    const content = node.text.slice(open.text.length, node.text.length - close.text.length);
    if (content.length > 40 || content.includes('\\')) return [];
    const replacement = `${open.text}${content === '' ? ' ' : ''}${close.text}`;
    return [{ start: node.startIndex, end: node.endIndex, replacement, description: `string ${node.text} → ${replacement}` }];
  },
};

function isMessage(node: PyNode): boolean {
  const parent = node.parent;
  // A string statement (a docstring, mostly) does nothing at run time.
  if (parent?.type === 'expression_statement') return true;
  if (parent?.type === 'argument_list' && LOG_CALL.test(parent.parent?.childForFieldName('function')?.text ?? '')) return true;
  for (let current = parent; current; current = current.parent) {
    if (MESSAGE_STATEMENTS.has(current.type)) return true;
    if (current.type === 'block' || current.type === 'module') return false;
  }
  return false;
}
