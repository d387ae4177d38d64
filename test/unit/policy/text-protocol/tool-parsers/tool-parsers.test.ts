import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../../../../src/policy/policy.js';
import { parseTextToolCall } from '../../../../../src/policy/text-protocol/parse-text-tool-call.js';
import { TOOL_PARSER_NAMES, type ToolParserName } from '../../../../../src/policy/text-protocol/tool-parsers/tool-parsers.js';

const tools: ToolSpec[] = [
  { name: 'bash', description: '', parameters: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'integer' } }, required: ['command'] } },
  { name: 'edit', description: '', parameters: { type: 'object', properties: { path: { type: 'string' }, search: { type: 'string' }, replace: { type: 'string' } } } },
  { name: 'submit', description: '', parameters: { type: 'object', properties: { paths: { type: 'object' }, dry: { type: 'boolean' } } } },
];

const code = 'def f(x):\n    return {"a": x}  # </tool_call> in code\n';

// [parser, case, model output, tool, arguments, content left]
const valid: Array<[ToolParserName, string, string, string, Record<string, unknown>, string]> = [
  ['hermes', 'Qwen2.5 block after reasoning', 'I will list files.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls -la"}}\n</tool_call>', 'bash', { command: 'ls -la' }, 'I will list files.'],
  ['hermes', 'Qwen3 with a think block', '<think>\nCheck the tree first.\n</think>\n\n<tool_call>\n{"name": "bash", "arguments": {"command": "git status"}}\n</tool_call>', 'bash', { command: 'git status' }, '<think>\nCheck the tree first.\n</think>'],
  ['hermes', 'arguments as a JSON string', '<tool_call>{"name": "edit", "arguments": "{\\"path\\": \\"a.py\\"}"}</tool_call>', 'edit', { path: 'a.py' }, ''],
  ['hermes', 'close tag stripped by a stop sequence', '<tool_call>\n{"name": "bash", "arguments": {"command": "pytest -q"}}', 'bash', { command: 'pytest -q' }, ''],
  [
    'qwen3_coder', 'multi-line code, unescaped',
    `Let me fix it.\n<tool_call>\n<function=edit>\n<parameter=path>\na.py\n</parameter>\n<parameter=search>\n${code}\n</parameter>\n<parameter=replace>\nx = 1\n</parameter>\n</function>\n</tool_call>`,
    'edit', { path: 'a.py', search: code, replace: 'x = 1' }, 'Let me fix it.',
  ],
  ['qwen3_coder', 'integer typed by the schema', '<tool_call>\n<function=bash>\n<parameter=command>\nsleep 1\n</parameter>\n<parameter=timeout>\n30\n</parameter>\n</function>\n</tool_call>', 'bash', { command: 'sleep 1', timeout: 30 }, ''],
  ['qwen3_coder', 'object and boolean typed by the schema', '<tool_call>\n<function=submit>\n<parameter=paths>\n{"diff": "/ssr/p.diff"}\n</parameter>\n<parameter=dry>\nfalse\n</parameter>\n</function>\n</tool_call>', 'submit', { paths: { diff: '/ssr/p.diff' }, dry: false }, ''],
  ['qwen3_coder', 'close tags stripped by a stop sequence', '<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>', 'bash', { command: 'ls' }, ''],
  ['qwen3_coder', 'a number-looking command stays a string', '<tool_call>\n<function=bash>\n<parameter=command>\n123\n</parameter>\n</function>\n</tool_call>', 'bash', { command: '123' }, ''],
  ['llama3_json', 'bare JSON with "parameters"', '{"name": "bash", "parameters": {"command": "ls"}}', 'bash', { command: 'ls' }, ''],
  ['llama3_json', 'after <|python_tag|>, ending <|eom_id|>', 'Looking around.<|python_tag|>{"name": "bash", "parameters": {"command": "cat setup.py"}}<|eom_id|>', 'bash', { command: 'cat setup.py' }, 'Looking around.'],
  ['llama3_json', '"arguments" instead of "parameters"', '{"name": "edit", "arguments": {"path": "a.py", "search": "1", "replace": "2"}}', 'edit', { path: 'a.py', search: '1', replace: '2' }, ''],
  ['llama3_json', '"parameters" as a JSON string', '{"name": "bash", "parameters": "{\\"command\\": \\"ls\\"}"}', 'bash', { command: 'ls' }, ''],
  ['mistral', 'v3 array, arguments as a JSON string', '[TOOL_CALLS][{"name": "bash", "arguments": "{\\"command\\": \\"ls\\"}"}]', 'bash', { command: 'ls' }, ''],
  ['mistral', 'v3 array', 'Running the tests.[TOOL_CALLS][{"name": "bash", "arguments": {"command": "pytest -x"}}]</s>', 'bash', { command: 'pytest -x' }, 'Running the tests.'],
  ['mistral', 'v11 NAME[ARGS]', '[TOOL_CALLS]bash[ARGS]{"command": "git diff"}', 'bash', { command: 'git diff' }, ''],
  ['mistral', 'v11 with a call id', '[TOOL_CALLS]edit[CALL_ID]a1B2c3D4e[ARGS]{"path": "x.py", "search": "a", "replace": "b"}', 'edit', { path: 'x.py', search: 'a', replace: 'b' }, ''],
  ['cwm', 'ours: raw bash body', 'Look.\n<tool: bash>\nls -la\n</tool>', 'bash', { command: 'ls -la' }, 'Look.'],
  ['cwm', 'ours: reads a Hermes block too', '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>', 'bash', { command: 'ls' }, ''],
];

// [parser, case, model output, a fragment of the format error]
const malformed: Array<[ToolParserName, string, string, string]> = [
  ['hermes', 'no call', 'The bug is in parse().', 'No tool call found'],
  ['hermes', 'two calls', '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call><tool_call>{"name": "bash", "arguments": {"command": "pwd"}}</tool_call>', 'Found 2 tool calls (bash, bash)'],
  ['hermes', 'unquoted key', '<tool_call>{"name": "bash", "arguments": {command: "ls"}}</tool_call>', 'Malformed JSON in <tool_call>'],
  ['hermes', 'CWM is not read', '<tool: bash>\nls\n</tool>', 'No tool call found'],
  ['qwen3_coder', 'no <function=', '<tool_call>\n{"name": "bash"}\n</tool_call>', '<tool_call> must start with <function=NAME>'],
  ['qwen3_coder', 'unterminated function', '<tool_call>\n<function=bash>\nls\n</tool_call>', 'Unterminated <function=bash>'],
  ['qwen3_coder', 'a value outside <parameter=>', '<tool_call>\n<function=bash>\nls\n</function>\n</tool_call>', 'Unexpected text in <function=bash>'],
  ['qwen3_coder', 'bad tool name', '<tool_call>\n<function=rm -rf>\n</function>\n</tool_call>', 'Invalid tool name "rm -rf"'],
  ['qwen3_coder', 'two calls', '<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=bash>\n<parameter=command>\npwd\n</parameter>\n</function>\n</tool_call>', 'Found 2 tool calls'],
  ['llama3_json', 'prose only', 'I need to look at the tests first.', 'No tool call found'],
  ['llama3_json', 'missing name', '{"parameters": {"command": "ls"}}', 'A tool call needs a "name" string'],
  ['llama3_json', 'truncated JSON', '<|python_tag|>{"name": "bash", "parameters": {"command": "ls"', 'Malformed JSON tool call: missing closing'],
  ['llama3_json', 'two calls joined by ;', '{"name": "bash", "parameters": {"command": "ls"}}; {"name": "bash", "parameters": {"command": "pwd"}}', 'Found 2 tool calls (bash, bash)'],
  ['llama3_json', 'parameters not an object', '{"name": "bash", "parameters": ["ls"]}', '"parameters" of the call to "bash" must be a JSON object'],
  ['llama3_json', 'parameters a string that is not a JSON object', '{"name": "bash", "parameters": "ls"}', '"parameters" of the call to "bash" must be a JSON object'],
  ['mistral', 'arguments a string that is not a JSON object', '[TOOL_CALLS][{"name": "bash", "arguments": "[1]"}]', '"arguments" of the call to "bash" must be a JSON object'],
  ['mistral', 'no marker', 'Let me think.', 'No tool call found'],
  ['mistral', 'truncated array', '[TOOL_CALLS][{"name": "bash", "arguments": {"command": "ls"}', 'Malformed JSON after [TOOL_CALLS]'],
  ['mistral', 'two calls in one array', '[TOOL_CALLS][{"name": "bash", "arguments": {}}, {"name": "edit", "arguments": {}}]', 'Found 2 tool calls (bash, edit)'],
  ['mistral', 'v11 without [ARGS]', '[TOOL_CALLS]bash {"command": "ls"}', 'Expected NAME[ARGS]{…}'],
  ['cwm', 'unterminated bash', '<tool: bash>\nls -la', 'Unterminated <tool: bash> call'],
];

describe('tool parsers: real-looking outputs of each format', () => {
  it.each(valid)('%s: %s', (parser, _case, output, name, args, content) => {
    expect(parseTextToolCall(output, { parser, tools, id: 'call_3' })).toEqual({ status: 'ok', call: { id: 'call_3', name, arguments: args }, content });
  });

  it.each(malformed)('%s rejects %s', (parser, _case, output, fragment) => {
    const parsed = parseTextToolCall(output, { parser, tools });
    expect(parsed.status).toBe('error');
    if (parsed.status !== 'error') return;
    expect(parsed.formatError).toContain(fragment);
    expect(parsed.content).toBe(output);
  });

  it.each(TOOL_PARSER_NAMES)('%s has valid and malformed cases, and reminds the model of its own format', (parser) => {
    expect(valid.filter(([name]) => name === parser).length).toBeGreaterThanOrEqual(2);
    expect(malformed.filter(([name]) => name === parser).length).toBeGreaterThanOrEqual(1);
    const parsed = parseTextToolCall('nothing here', { parser });
    const marker = { cwm: '<tool: NAME>', hermes: '<tool_call>{"name"', qwen3_coder: '<function=NAME>', llama3_json: '"parameters"', mistral: '[TOOL_CALLS]' }[parser];
    expect(parsed.status === 'error' && parsed.formatError).toContain(marker);
  });
});
