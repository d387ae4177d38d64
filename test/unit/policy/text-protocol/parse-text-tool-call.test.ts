import { describe, expect, it } from 'vitest';
import { parseTextToolCall } from '../../../../src/policy/text-protocol/parse-text-tool-call.js';

describe('parseTextToolCall: valid calls', () => {
  // [case, reply, expected tool name, expected arguments, expected content (reply without the call)]
  it.each<[string, string, string, unknown, string]>([
    ['cwm bash', 'Let me look.\n<tool: bash>\nls -la /repo\n</tool>', 'bash', { command: 'ls -la /repo' }, 'Let me look.'],
    ['cwm bash, multi-line with a heredoc', '<tool: bash>\ncat > /tmp/x <<EOF\na\n  b\nEOF\n</tool>', 'bash', { command: 'cat > /tmp/x <<EOF\na\n  b\nEOF' }, ''],
    ['cwm bash, "</tool>" inside a command line', '<tool: bash>\necho "</tool>" | wc -c\n</tool>', 'bash', { command: 'echo "</tool>" | wc -c' }, ''],
    ['cwm bash, one-line form', 'ok <tool: bash>pwd</tool>', 'bash', { command: 'pwd' }, 'ok'],
    ['cwm bash, fenced body', '<tool: bash>\n```bash\ngit status\n```\n</tool>', 'bash', { command: 'git status' }, ''],
    ['cwm bash, shell group is a command, not JSON', '<tool: bash>\n{ cd /repo; ls; }\n</tool>', 'bash', { command: '{ cd /repo; ls; }' }, ''],
    ['cwm bash, JSON body with extra arguments', '<tool: bash>\n{"command": "sleep 1", "timeout": 5}\n</tool>', 'bash', { command: 'sleep 1', timeout: 5 }, ''],
    ['cwm bash, text after the call is kept', 'before\n<tool: bash>\nls\n</tool>\nafter', 'bash', { command: 'ls' }, 'before\n\nafter'],
    [
      'cwm edit, multi-line search/replace in JSON',
      'Fix it.\n<tool: edit>\n{"path": "a.py", "search": "def f():\\n    return 1\\n", "replace": "def f():\\n    return 2\\n"}\n</tool>',
      'edit',
      { path: 'a.py', search: 'def f():\n    return 1\n', replace: 'def f():\n    return 2\n' },
      'Fix it.',
    ],
    [
      'cwm create, code with </tool> and braces inside JSON strings',
      '<tool: create>\n{"path": "t.py", "content": "s = \\"</tool>\\"\\nd = {\\"a\\": [1, {}]}\\n# }\\n"}\n</tool>',
      'create',
      { path: 't.py', content: 's = "</tool>"\nd = {"a": [1, {}]}\n# }\n' },
      '',
    ],
    ['cwm nested JSON arguments', '<tool: submit>\n{"paths": {"diff": "/ssr/a.diff", "extra": [1, [2, {"x": null}]]}}\n</tool>', 'submit', { paths: { diff: '/ssr/a.diff', extra: [1, [2, { x: null }]] } }, ''],
    ['cwm JSON body fenced as ```json', '<tool: edit>\n```json\n{"path": "a", "search": "x", "replace": "y"}\n```\n</tool>', 'edit', { path: 'a', search: 'x', replace: 'y' }, ''],
    ['cwm JSON body, close tag stripped by a stop sequence', '<tool: edit>\n{"path": "a", "search": "x", "replace": "y"}\n', 'edit', { path: 'a', search: 'x', replace: 'y' }, ''],
    ['cwm unknown argument fields pass through (the tool validates them)', '<tool: edit>\n{"path": "a", "bogus": true}\n</tool>', 'edit', { path: 'a', bogus: true }, ''],
    ['hermes', 'Thinking.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>', 'bash', { command: 'ls' }, 'Thinking.'],
    ['hermes, arguments as a JSON string', '<tool_call>{"name": "edit", "arguments": "{\\"path\\": \\"a\\"}"}</tool_call>', 'edit', { path: 'a' }, ''],
    ['hermes, </tool_call> inside a string', '<tool_call>{"name": "create", "arguments": {"path": "x", "content": "</tool_call>"}}</tool_call>', 'create', { path: 'x', content: '</tool_call>' }, ''],
    ['hermes, close tag stripped by a stop sequence', '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}', 'bash', { command: 'ls' }, ''],
  ])('%s', (_case, reply, name, args, content) => {
    const parsed = parseTextToolCall(reply, { id: 'call_7' });
    expect(parsed).toEqual({ status: 'ok', call: { id: 'call_7', name, arguments: args }, content });
  });
});

describe('parseTextToolCall: format errors', () => {
  // [case, reply, a fragment the error must contain]
  it.each<[string, string, string]>([
    ['no call at all', 'I think the bug is in parse().', 'No tool call found'],
    ['empty reply', '', 'No tool call found'],
    ['two cwm calls', '<tool: bash>\nls\n</tool>\n<tool: bash>\npwd\n</tool>', 'Found 2 tool calls (bash, bash)'],
    ['cwm and hermes calls', '<tool: bash>\nls\n</tool>\n<tool_call>{"name": "edit", "arguments": {}}</tool_call>', 'Found 2 tool calls (bash, edit)'],
    ['a second, malformed call', '<tool: bash>\nls\n</tool>\n<tool: edit>\n{"path": \n</tool>', 'More than one tool call (and the extra one is malformed'],
    ['malformed JSON (trailing comma)', '<tool: edit>\n{"path": "a",}\n</tool>', 'Malformed JSON in <tool: edit>'],
    ['malformed JSON (unterminated string)', '<tool: edit>\n{"path": "a\n</tool>', 'Malformed JSON in <tool: edit>: unterminated string'],
    ['malformed JSON (missing brace)', '<tool: edit>\n{"path": {"a": 1}\n</tool>', 'missing closing "}"'],
    ['JSON tool with a raw body', '<tool: edit>\npath=a.py\n</tool>', 'The body of <tool: edit> must be a JSON object'],
    ['JSON array instead of object', '<tool: edit>\n[1, 2]\n</tool>', 'must be a JSON object'],
    ['text between JSON and close tag', '<tool: edit>\n{"path": "a"} and more\n</tool>', 'Expected </tool> right after the JSON object of <tool: edit>, found "and more'],
    ['unterminated bash', '<tool: bash>\nls -la', 'Unterminated <tool: bash> call'],
    ['missing tool name', '<tool: >\nls\n</tool>', 'Missing tool name'],
    ['invalid tool name', '<tool: rm -rf>\nls\n</tool>', 'Invalid tool name "rm -rf"'],
    ['malformed opening tag', '<tool:\nbash>\nls\n</tool>', 'Malformed tag "<tool:"'],
    ['hermes without a name', '<tool_call>{"arguments": {"command": "ls"}}</tool_call>', 'needs a "name" string'],
    ['hermes with unknown fields', '<tool_call>{"name": "bash", "arguments": {}, "id": 3, "type": "x"}</tool_call>', 'Unexpected fields "id", "type" in <tool_call>'],
    ['hermes arguments not an object', '<tool_call>{"name": "bash", "arguments": ["ls"]}</tool_call>', '"arguments" of <tool_call> for "bash" must be a JSON object'],
    ['hermes malformed JSON', '<tool_call>{"name": "bash", "arguments": {command: "ls"}}</tool_call>', 'Malformed JSON in <tool_call>'],
  ])('%s', (_case, reply, fragment) => {
    const parsed = parseTextToolCall(reply);
    expect(parsed.status).toBe('error');
    if (parsed.status !== 'error') return;
    expect(parsed.formatError).toContain(fragment);
    expect(parsed.content).toBe(reply);
  });

  it.each([
    ['cwm', '`<tool: NAME>`'],
    ['hermes', '<tool_call>{"name": "NAME"'],
  ] as const)('reminds the model of the %s format', (format, reminder) => {
    const parsed = parseTextToolCall('nothing', { format });
    expect(parsed.status === 'error' && parsed.formatError).toContain(reminder);
  });

  it('gives the default id call_0', () => {
    const parsed = parseTextToolCall('<tool: bash>\nls\n</tool>');
    expect(parsed.status === 'ok' && parsed.call.id).toBe('call_0');
  });
});
