import { describe, expect, it } from 'vitest';
import type { PolicyRequest } from '../../../src/policy/policy.js';
import { ScriptedPolicy } from '../../../src/policy/scripted-policy.js';
import { isEngineError } from '../../../src/util/engine-error.js';

function request(messages: PolicyRequest['messages'] = [{ role: 'user', content: 'fix it' }]): PolicyRequest {
  return { episodeId: 'ep-1', role: 'solver', messages, tools: [] };
}

describe('ScriptedPolicy', () => {
  it('replays turns in order: tool calls, text read with the protocol, functions, errors', async () => {
    const boom = new Error('endpoint down');
    const policy = new ScriptedPolicy([
      { content: 'Looking.', toolCall: { name: 'bash', arguments: { command: 'ls' } } },
      { text: 'Edit.\n<tool: edit>\n{"path": "a", "search": "x", "replace": "y"}\n</tool>' },
      (req) => ({ toolCall: { name: 'submit', arguments: { n: req.messages.length } } }),
      boom,
    ]);
    const first = await policy.complete(request());
    expect(first.toolCalls).toEqual([{ id: 'call_0', name: 'bash', arguments: { command: 'ls' } }]);
    expect(first.message).toEqual({ role: 'assistant', content: 'Looking.', toolCalls: first.toolCalls });
    expect(first.finishReason).toBe('tool_calls');

    const second = await policy.complete(request([{ role: 'user', content: 'u' }, first.message]));
    expect(second.toolCalls).toEqual([{ id: 'call_1', name: 'edit', arguments: { path: 'a', search: 'x', replace: 'y' } }]);
    expect(second.message.content).toBe('Edit.');

    const third = await policy.complete(request([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]));
    expect(third.toolCalls[0]!.arguments).toEqual({ n: 2 });

    await expect(policy.complete(request())).rejects.toBe(boom);
    expect(policy.remaining).toBe(0);
    expect(policy.requests).toHaveLength(4);
  });

  it.each<[string, ConstructorParameters<typeof ScriptedPolicy>[0][number], string]>([
    ['text without a call', { text: 'I am done.' }, 'No tool call found'],
    ['content without a call', { content: 'hmm' }, 'No tool call found'],
    ['an explicit format error', { content: 'x', toolCall: { name: 'bash', arguments: {} }, formatError: 'two calls' }, 'two calls'],
  ])('reports a format error for %s', async (_case, turn, fragment) => {
    const result = await new ScriptedPolicy([turn]).complete(request());
    expect(result.formatError).toContain(fragment);
    expect(result.toolCalls).toEqual([]);
  });

  it('passes a full PolicyTurn from a function through untouched', async () => {
    const turn = { message: { role: 'assistant' as const, content: 'x' }, toolCalls: [], usage: { promptTokens: 1, completionTokens: 2 }, finishReason: 'length' as const };
    expect(await new ScriptedPolicy([() => turn]).complete(request())).toBe(turn);
  });

  it('records requests as they were at call time', async () => {
    const policy = new ScriptedPolicy([{ toolCall: { name: 'bash', arguments: { command: 'ls' } } }]);
    const messages: PolicyRequest['messages'] = [{ role: 'user', content: 'first' }];
    await policy.complete({ ...request(messages), signal: new AbortController().signal });
    messages.push({ role: 'user', content: 'later' });
    expect(policy.requests[0]!.messages).toEqual([{ role: 'user', content: 'first' }]);
    expect('signal' in policy.requests[0]!).toBe(false);
  });

  it('throws a clear error when the script runs out', async () => {
    const policy = new ScriptedPolicy([]);
    const error = await policy.complete(request()).catch((e: unknown) => e);
    expect(isEngineError(error) && error.code).toBe('internal');
    expect((error as Error).message).toBe('ScriptedPolicy: the script has no turn left for request 1 (episode ep-1, last message user: "fix it")');
  });

  it('records ended episodes', () => {
    const policy = new ScriptedPolicy([]);
    policy.endEpisode('ep-9');
    expect(policy.endedEpisodes).toEqual(['ep-9']);
  });
});
