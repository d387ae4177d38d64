import { describe, expect, it } from 'vitest';
import { parseTextToolCall } from '../../../../src/policy/text-protocol/parse-text-tool-call.js';
import { renderToolCallAsText } from '../../../../src/policy/text-protocol/render-tool-call-text.js';
import type { TextToolFormat } from '../../../../src/policy/text-protocol/text-tool-format.js';

const calls: Array<[string, string, Record<string, unknown>]> = [
  ['plain bash', 'bash', { command: 'ls -la' }],
  ['multi-line bash', 'bash', { command: 'cd /repo\npytest -x tests/ 2>&1 | tail -5' }],
  ['bash with a </tool> line (must fall back to JSON)', 'bash', { command: 'cat <<EOF\n</tool>\nEOF' }],
  ['bash that looks like a JSON object', 'bash', { command: '{"command": "x"}' }],
  ['bash with extra arguments', 'bash', { command: 'sleep 3', timeout: 10 }],
  ['bash with leading and trailing newlines', 'bash', { command: '\nls\n' }],
  ['bash that is a fence', 'bash', { command: '```\nls\n```' }],
  [
    'edit with multi-line search/replace, quotes, backslashes and tags',
    'edit',
    { path: 'src/a.py', search: 'def f(x):\n    return "\\n" + x  # </tool>\n', replace: 'def f(x):\n    return x\n' },
  ],
  ['create with unicode and braces', 'create', { path: 'b.py', content: 'café = {"k": [1, 2]}\n}\n' }],
  ['submit with nested arguments', 'submit', { files: { test_files: '/ssr/test_files.txt' }, note: null }],
];

describe('renderToolCallAsText', () => {
  describe.each<TextToolFormat>(['cwm', 'hermes'])('%s round trip', (format) => {
    it.each(calls)('%s', (_case, name, args) => {
      const text = renderToolCallAsText({ name, arguments: args }, format);
      expect(parseTextToolCall(`Some reasoning first.\n\n${text}`, { id: 'x' })).toEqual({
        status: 'ok',
        call: { id: 'x', name, arguments: args },
        content: 'Some reasoning first.',
      });
    });
  });

  it.each<[TextToolFormat, string, Record<string, unknown>, string]>([
    ['cwm', 'bash', { command: 'ls' }, '<tool: bash>\nls\n</tool>'],
    ['cwm', 'edit', { path: 'a', search: 'x\n', replace: 'y\n' }, '<tool: edit>\n{"path":"a","search":"x\\n","replace":"y\\n"}\n</tool>'],
    ['hermes', 'bash', { command: 'ls' }, '<tool_call>\n{"name":"bash","arguments":{"command":"ls"}}\n</tool_call>'],
  ])('renders %s %s exactly', (format, name, args, expected) => {
    expect(renderToolCallAsText({ name, arguments: args }, format)).toBe(expected);
  });
});
