import { describe, expect, it } from 'vitest';
import { toOpenAIMessages, toOpenAITools } from '../../../src/policy/openai-messages.js';
import type { ChatMessage } from '../../../src/policy/policy.js';

describe('toOpenAIMessages', () => {
  it.each<[string, ChatMessage, unknown]>([
    ['system', { role: 'system', content: 's' }, { role: 'system', content: 's' }],
    ['user', { role: 'user', content: 'u' }, { role: 'user', content: 'u' }],
    ['assistant without calls', { role: 'assistant', content: 'a', toolCalls: [] }, { role: 'assistant', content: 'a' }],
    [
      'assistant with a call (arguments as a JSON string)',
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'edit', arguments: { path: 'a', search: 'x\n' } }] },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'edit', arguments: '{"path":"a","search":"x\\n"}' } }] },
    ],
    ['tool result', { role: 'tool', content: 'ok', toolCallId: 'c1', name: 'edit' }, { role: 'tool', content: 'ok', tool_call_id: 'c1' }],
  ])('%s', (_case, message, wire) => {
    expect(toOpenAIMessages([message])).toEqual([wire]);
  });

  it('wraps tools as functions', () => {
    const parameters = { type: 'object', properties: { command: { type: 'string' } } };
    expect(toOpenAITools([{ name: 'bash', description: 'Run.', parameters }])).toEqual([
      { type: 'function', function: { name: 'bash', description: 'Run.', parameters } },
    ]);
  });
});
