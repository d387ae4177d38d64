import { describe, expect, it } from 'vitest';
import { readChatCompletion } from '../../../src/policy/read-chat-completion.js';
import { isEngineError } from '../../../src/util/engine-error.js';

const URL = 'http://h/v1/chat/completions';
const options = { callId: 'call_3', format: 'cwm' as const };

function response(message: Record<string, unknown>, finish = 'stop', usage: unknown = { prompt_tokens: 11, completion_tokens: 7 }) {
  return { choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], usage };
}

function wireCall(name: string, args: string, id = 'srv_1') {
  return { id, type: 'function', function: { name, arguments: args } };
}

describe('readChatCompletion', () => {
  it('reads one native tool call with JSON-string arguments', () => {
    const turn = readChatCompletion(response({ content: null, tool_calls: [wireCall('edit', '{"path":"a","search":"x\\n","replace":"y\\n"}')] }, 'tool_calls'), URL, options);
    const call = { id: 'srv_1', name: 'edit', arguments: { path: 'a', search: 'x\n', replace: 'y\n' } };
    expect(turn).toEqual({ message: { role: 'assistant', content: '', toolCalls: [call] }, toolCalls: [call], usage: { promptTokens: 11, completionTokens: 7 }, finishReason: 'tool_calls' });
  });

  it.each<[string, unknown, string]>([
    ['empty arguments string means {}', wireCall('submit', ''), 'ok'],
    ['missing id gets the fallback id', { type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }, 'ok'],
  ])('%s', (_case, call) => {
    const turn = readChatCompletion(response({ content: '', tool_calls: [call] }), URL, options);
    expect(turn.formatError).toBeUndefined();
    expect(turn.toolCalls).toHaveLength(1);
    expect(turn.toolCalls[0]!.id).toMatch(/^(srv_1|call_3)$/);
  });

  // [case, message, fragment of formatError]
  it.each<[string, Record<string, unknown>, string]>([
    ['undecodable arguments', { content: 'hm', tool_calls: [wireCall('edit', '{"path": "a",')] }, 'The arguments of your edit call are not valid JSON'],
    ['arguments that decode to a non-object', { content: '', tool_calls: [wireCall('bash', '"ls"')] }, 'must be a JSON object'],
    ['two native calls', { content: '', tool_calls: [wireCall('bash', '{"command":"ls"}'), wireCall('bash', '{"command":"pwd"}', 'srv_2')] }, 'You made 2 tool calls (bash, bash)'],
    ['a call without a name', { content: '', tool_calls: [{ id: 'x', type: 'function', function: { arguments: '{}' } }] }, 'no tool name'],
    ['text without any call', { content: 'I give up.' }, 'No tool call found'],
  ])('format error: %s', (_case, message, fragment) => {
    const turn = readChatCompletion(response(message), URL, options);
    expect(turn.formatError).toContain(fragment);
    expect(turn.toolCalls).toEqual([]);
    expect(turn.message.toolCalls).toBeUndefined();
  });

  it('keeps what the model wrote in the message when its native call is broken', () => {
    const turn = readChatCompletion(response({ content: 'Editing.', tool_calls: [wireCall('edit', '{"path": oops}')] }), URL, options);
    expect(turn.message.content).toBe('Editing.\n\n<tool_call>\n{"name": "edit", "arguments": {"path": oops}}\n</tool_call>');
  });

  it('falls back to the text protocol when the server returns text only', () => {
    const turn = readChatCompletion(response({ content: 'Run it.\n<tool_call>{"name": "bash", "arguments": {"command": "pytest"}}</tool_call>' }), URL, options);
    expect(turn.toolCalls).toEqual([{ id: 'call_3', name: 'bash', arguments: { command: 'pytest' } }]);
    expect(turn.message).toEqual({ role: 'assistant', content: 'Run it.', toolCalls: turn.toolCalls });
    expect(turn.finishReason).toBe('tool_calls');
  });

  it('reports truncation as finishReason length', () => {
    const turn = readChatCompletion(response({ content: '<tool: bash>\nls' }, 'length'), URL, options);
    expect(turn.finishReason).toBe('length');
    expect(turn.formatError).toContain('Unterminated');
  });

  it('defaults missing usage to zero', () => {
    const turn = readChatCompletion(response({ content: '<tool: bash>\nls\n</tool>' }, 'stop', null), URL, options);
    expect(turn.usage).toEqual({ promptTokens: 0, completionTokens: 0 });
  });

  it.each([{}, { choices: [] }, { choices: [{ message: null }] }, null])('throws policy-unavailable on a response without a message: %j', (body) => {
    try {
      readChatCompletion(body, URL, options);
      expect.unreachable();
    } catch (error) {
      expect(isEngineError(error) && error.code).toBe('policy-unavailable');
      expect((error as Error).message).toContain('malformed response from http://h/v1/chat/completions');
    }
  });
});
