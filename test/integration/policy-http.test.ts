import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIPolicy, type OpenAIPolicyOptions } from '../../src/policy/openai-policy.js';
import type { ChatMessage, PolicyRequest, PolicyTurn, TokenSample, ToolSpec } from '../../src/policy/policy.js';
import { buildTokenTrajectory } from '../../src/policy/token-trajectory.js';
import { TokensPolicy, type TokensPolicyOptions } from '../../src/policy/tokens-policy.js';
import { fakeLogprob, startFakeOpenAIServer, type FakeOpenAIServer, type FakeRequest } from '../../src/testing/fake-openai-server.js';
import { SAMPLED_ID_OFFSET, toyEncode, toyTokenizeChat, type ToyChatMessage } from '../../src/testing/toy-tokenizer.js';
import { toOpenAIMessages, toOpenAITools } from '../../src/policy/openai-messages.js';
import { EngineError, isEngineError } from '../../src/util/engine-error.js';

const tools: ToolSpec[] = [
  { name: 'bash', description: 'Run a command.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
  {
    name: 'edit',
    description: 'Replace lines.',
    parameters: { type: 'object', properties: { path: { type: 'string' }, search: { type: 'string' }, replace: { type: 'string' } }, required: ['path', 'search', 'replace'] },
  },
];

const start: ChatMessage[] = [
  { role: 'system', content: 'You are the solver.' },
  { role: 'user', content: 'Make the tests pass.' },
];

function request(messages: ChatMessage[], extra: Partial<PolicyRequest> = {}): PolicyRequest {
  return { episodeId: 'ep-1', role: 'solver', messages, tools, ...extra };
}

function toolResult(turn: PolicyTurn, content: string): ChatMessage {
  return { role: 'tool', content, toolCallId: turn.toolCalls[0]!.id, name: turn.toolCalls[0]!.name };
}

function posts(server: FakeOpenAIServer, path: string): FakeRequest[] {
  return server.requests.filter((r) => r.method === 'POST' && r.path === path);
}

async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isEngineError(error)) throw new Error(`expected an EngineError, got ${String(error)}`);
  return error;
}

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer({ model: 'fake-model', sampledIdOffset: SAMPLED_ID_OFFSET });
});
afterEach(async () => {
  await server.close();
});

describe('openai policy over HTTP', () => {
  const fast: OpenAIPolicyOptions = { model: 'fake-model', retryBaseDelayMs: 10, retryMaxDelayMs: 50, maxRetries: 3, env: {} };

  it('round-trips native tool calls and maps the conversation to the wire', async () => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: `${server.baseUrl}/v1/`, apiKey: 'sk-test', temperature: 0.6, topP: 0.9, maxTokens: 512, seed: 7 });
    server.replyChat(
      { type: 'tool-calls', content: 'Looking.', calls: [{ id: 'srv_a', name: 'bash', arguments: { command: 'ls' } }] },
      { type: 'tool-calls', calls: [{ id: 'srv_b', name: 'edit', arguments: { path: 'a.py', search: 'x = 1\n', replace: 'x = 2\n' } }] },
    );
    const messages = [...start];
    const first = await policy.complete(request(messages));
    expect(first.toolCalls).toEqual([{ id: 'srv_a', name: 'bash', arguments: { command: 'ls' } }]);
    expect(first.message).toEqual({ role: 'assistant', content: 'Looking.', toolCalls: first.toolCalls });
    messages.push(first.message, toolResult(first, 'a.py'));
    const second = await policy.complete(request(messages, { seed: 11 }));
    expect(second.toolCalls[0]!.arguments).toEqual({ path: 'a.py', search: 'x = 1\n', replace: 'x = 2\n' });
    expect(second.finishReason).toBe('tool_calls');

    const [, wire] = posts(server, '/v1/chat/completions');
    expect(wire!.headers.authorization).toBe('Bearer sk-test');
    expect(wire!.body).toMatchObject({ model: 'fake-model', tool_choice: 'auto', temperature: 0.6, top_p: 0.9, max_tokens: 512, seed: 11 });
    expect((wire!.body as { tools: unknown }).tools).toEqual(toOpenAITools(tools));
    expect((wire!.body as { messages: unknown[] }).messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Looking.', tool_calls: [{ id: 'srv_a', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
      { role: 'tool', content: 'a.py', tool_call_id: 'srv_a' },
    ]);
  });

  it('falls back to the text protocol when the server answers with text', async () => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: server.baseUrl });
    server.replyChat({ type: 'text', content: 'I will run the tests.\n<tool: bash>\npytest -q\n</tool>' });
    const turn = await policy.complete(request(start));
    expect(turn.toolCalls).toEqual([{ id: 'call_0', name: 'bash', arguments: { command: 'pytest -q' } }]);
    expect(turn.message.content).toBe('I will run the tests.');
  });

  it('reports undecodable native arguments as a format error, not an exception', async () => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: server.baseUrl });
    server.replyChat({ type: 'tool-calls', calls: [{ name: 'edit', arguments: '{"path": "a.py", "search": ' }] });
    const turn = await policy.complete(request(start));
    expect(turn.formatError).toContain('not valid JSON');
    expect(turn.toolCalls).toEqual([]);
  });

  it('teaches the protocol in text mode and sends no tools', async () => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: server.baseUrl, toolProtocol: 'text', textFormat: 'hermes' });
    server.replyChat({ type: 'text', content: '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>' });
    const turn = await policy.complete(request(start));
    expect(turn.toolCalls[0]!.name).toBe('bash');
    const body = posts(server, '/v1/chat/completions')[0]!.body as { tools?: unknown; messages: Array<{ content: string }> };
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]!.content).toContain('<tool_call>');
    expect(body.messages[0]!.content).toContain('## edit');
  });

  it('asks the server for its model when none is named', async () => {
    const policy = new OpenAIPolicy({ ...fast, model: undefined, baseUrl: server.baseUrl });
    server.replyChat({ type: 'text', content: '<tool: bash>\nls\n</tool>' });
    await policy.complete(request(start));
    expect(policy.name).toBe('openai:fake-model');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
  });

  it.each([
    ['503 twice', { type: 'status', status: 503 }, 2],
    ['429 with Retry-After', { type: 'status', status: 429, retryAfterSeconds: 0 }, 1],
    ['a dropped connection', { type: 'drop' }, 2],
  ] as const)('retries after %s, then succeeds', async (_case, failure, times) => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: server.baseUrl });
    server.fail(failure, times);
    server.replyChat({ type: 'text', content: '<tool: bash>\nls\n</tool>' });
    const turn = await policy.complete(request(start));
    expect(turn.toolCalls[0]!.name).toBe('bash');
    expect(posts(server, '/v1/chat/completions')).toHaveLength(times + 1);
  });

  it('gives up on a dead endpoint within bounded time', async () => {
    const port = await closedPort();
    const policy = new OpenAIPolicy({ ...fast, baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 2 });
    const began = Date.now();
    const error = await rejection(policy.complete(request(start)));
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(error.code).toBe('policy-unavailable');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(`cannot reach http://127.0.0.1:${port}/v1/chat/completions: ECONNREFUSED after 3 attempts`);
  });

  it('gives up after the retries when the server answers 503 for ever', async () => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: server.baseUrl });
    server.fail({ type: 'status', status: 503, body: 'server overloaded' }, Infinity);
    const error = await rejection(policy.complete(request(start)));
    expect(error.message).toBe(`HTTP 503 from ${server.baseUrl}/v1/chat/completions: server overloaded (after 4 attempts)`);
    expect(error.code).toBe('policy-unavailable');
    expect(posts(server, '/v1/chat/completions')).toHaveLength(4);
  });

  it('times out a slow response, retries, and reports the timeout', async () => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: server.baseUrl, requestTimeoutMs: 150, maxRetries: 1 });
    server.fail({ type: 'delay', ms: 1_000 }, Infinity);
    const error = await rejection(policy.complete(request(start)));
    expect(error.message).toBe(`request to ${server.baseUrl}/v1/chat/completions timed out after 0.15 s (2 attempts)`);
    expect(error.retryable).toBe(true);
  });

  it('recovers when only the first response is slow', async () => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: server.baseUrl, requestTimeoutMs: 150 });
    server.fail({ type: 'delay', ms: 600 });
    server.replyChat({ type: 'text', content: '<tool: bash>\nls\n</tool>' });
    expect((await policy.complete(request(start))).toolCalls[0]!.name).toBe('bash');
  });

  it.each([
    ['context overflow', { type: 'context-overflow' }, 'policy-context-overflow', "prompt does not fit the model's context: HTTP 400"],
    ['a plain 400', { type: 'status', status: 400, body: 'unknown field "foo"' }, 'policy-unavailable', 'HTTP 400 from'],
    ['401', { type: 'status', status: 401, body: 'bad key' }, 'policy-unavailable', '(check --api-key / OPENAI_API_KEY)'],
  ] as const)('does not retry %s', async (_case, failure, code, fragment) => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: server.baseUrl });
    server.fail(failure, Infinity);
    const error = await rejection(policy.complete(request(start)));
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(fragment);
    expect(posts(server, '/v1/chat/completions')).toHaveLength(1);
  });

  it('stops at once when the caller aborts', async () => {
    const policy = new OpenAIPolicy({ ...fast, baseUrl: server.baseUrl });
    server.fail({ type: 'delay', ms: 5_000 });
    const controller = new AbortController();
    const reason = new Error('episode cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await expect(policy.complete(request(start, { signal: controller.signal }))).rejects.toBe(reason);
  });
});

describe('tokens policy over HTTP', () => {
  const options: TokensPolicyOptions = { model: 'fake-model', maxTokens: 256, retryBaseDelayMs: 10, env: {} };

  /** What the server's template gives for the conversation (the test's own, independent computation). */
  function templateIds(messages: ChatMessage[], addGenerationPrompt: boolean): number[] {
    const wire = toOpenAIMessages(messages) as ToyChatMessage[];
    return toyTokenizeChat(wire, { addGenerationPrompt, toolNames: tools.map((t) => t.name) });
  }

  it('keeps one exact token sequence over 3 turns: sampled ids, deltas, loss mask, logprobs', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: `${server.baseUrl}/v1` });
    const replies = [
      'Let me look.\n<tool: bash>\nls\n</tool>',
      '<tool: edit>\n{"path": "a.py", "search": "x = 1\\n", "replace": "x = 2\\n"}\n</tool>',
      'Done.\n<tool_call>{"name": "bash", "arguments": {"command": "git diff > /tmp/p.diff"}}</tool_call>',
    ];
    server.replyCompletion({ text: replies[0]! }, { text: replies[1]!, shape: 'simple', policyVersion: 5 }, { text: replies[2]! });

    const messages = [...start];
    const samples: TokenSample[] = [];
    const expected: number[] = [];
    for (const [k, observation] of ['a.py\ntests/', 'Edited a.py', null].entries()) {
      const deltaStart = templateIds(messages.slice(0, lastAssistantEnd(messages)), false).length;
      expected.push(...(k === 0 ? templateIds(messages, true) : templateIds(messages, true).slice(deltaStart)));
      const turn = await policy.complete(request(messages));
      expect(turn.formatError).toBeUndefined();
      samples.push(turn.sample!);
      expect(turn.sample!.completionTokenIds).toEqual(toyEncode(replies[k]!, SAMPLED_ID_OFFSET));
      expect(turn.sample!.completionLogprobs).toEqual(turn.sample!.completionTokenIds.map((_, i) => fakeLogprob(i)));
      expect(turn.sample!.retokenizationWarnings).toBe(0);
      expected.push(...turn.sample!.completionTokenIds);
      messages.push(turn.message);
      if (observation !== null) messages.push(toolResult(turn, observation));
    }

    expect(samples.map((s) => s.policyVersion)).toEqual([0, 5, 5]);
    expect(policy.version).toBe(5);
    const trajectory = buildTokenTrajectory(samples);
    // The final sequence is the concatenation of each turn's template delta and sampled ids...
    expect(trajectory.tokens).toEqual(expected);
    expect(trajectory.tokens).toEqual([...samples[2]!.promptTokenIds, ...samples[2]!.completionTokenIds]);
    // ...the mask is 1 exactly on sampled tokens (the only ids the fake shifts by the offset)...
    const sampledCount = samples.reduce((n, s) => n + s.completionTokenIds.length, 0);
    expect(trajectory.lossMask.filter((bit) => bit === 1)).toHaveLength(sampledCount);
    trajectory.tokens.forEach((id, i) => expect(trajectory.lossMask[i]).toBe(id >= SAMPLED_ID_OFFSET ? 1 : 0));
    // ...and logprobs sit on the sampled tokens only.
    expect(trajectory.logprobs.filter((lp) => lp !== null)).toEqual(samples.flatMap((s) => s.completionLogprobs));
    trajectory.logprobs.forEach((lp, i) => expect(lp === null).toBe(trajectory.lossMask[i] === 0));

    // No retokenisation: the template renders the assistant turns as plain bytes, but the prompts
    // the sampler got carry the sampled (offset) ids.
    const prompts = posts(server, '/v1/completions').map((r) => (r.body as { prompt: number[] }).prompt);
    expect(prompts).toEqual(samples.map((s) => s.promptTokenIds));
    expect(prompts[1]!.slice(samples[0]!.promptTokenIds.length, samples[0]!.promptTokenIds.length + samples[0]!.completionTokenIds.length)).toEqual(
      samples[0]!.completionTokenIds,
    );
    expect(templateIds(messages, true).some((id) => id >= SAMPLED_ID_OFFSET)).toBe(false);

    const completion = posts(server, '/v1/completions')[0]!.body;
    expect(completion).toMatchObject({ model: 'fake-model', max_tokens: 256, logprobs: 1, return_tokens_as_token_ids: true, skip_special_tokens: false });
    const tokenize = posts(server, '/tokenize').map((r) => r.body as { add_generation_prompt: boolean; tools?: unknown });
    expect(tokenize.map((b) => b.add_generation_prompt)).toEqual([true, false, true, false, true]);
    expect(tokenize.every((b) => Array.isArray(b.tools))).toBe(true);
  });

  it('falls back to the longest common prefix on a template quirk and counts a warning', async () => {
    const quirky = await startFakeOpenAIServer({ sampledIdOffset: SAMPLED_ID_OFFSET, templateQuirk: true });
    try {
      const policy = new TokensPolicy({ ...options, baseUrl: quirky.baseUrl });
      quirky.replyCompletion({ text: '<tool: bash>\nls\n</tool>' }, { text: '<tool: bash>\npwd\n</tool>' });
      const first = await policy.complete(request(start));
      const second = await policy.complete(request([...start, first.message, toolResult(first, 'a.py')]));
      expect(second.sample!.retokenizationWarnings).toBe(1);
      const trajectory = buildTokenTrajectory([first.sample!, second.sample!]);
      expect(trajectory.tokens.slice(0, first.sample!.promptTokenIds.length + first.sample!.completionTokenIds.length)).toEqual([
        ...first.sample!.promptTokenIds,
        ...first.sample!.completionTokenIds,
      ]);
    } finally {
      await quirky.close();
    }
  });

  it('retokenises history it did not sample only with a warning', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: server.baseUrl });
    server.replyCompletion({ text: '<tool: bash>\nls\n</tool>' });
    const assistant: ChatMessage = { role: 'assistant', content: '', toolCalls: [{ id: 'c0', name: 'bash', arguments: { command: 'ls' } }] };
    const turn = await policy.complete(request([...start, assistant, { role: 'tool', content: 'x', toolCallId: 'c0', name: 'bash' }]));
    expect(turn.sample!.retokenizationWarnings).toBe(1);
  });

  it('reports a format error with the sample kept (RL trains on malformed turns too)', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: server.baseUrl });
    server.replyCompletion({ text: 'I am not sure what to do.' });
    const turn = await policy.complete(request(start));
    expect(turn.formatError).toContain('No tool call found');
    expect(turn.sample!.completionTokenIds).toHaveLength('I am not sure what to do.'.length);
  });

  it('caps max_tokens to the room left in the context, and refuses a prompt that fills it', async () => {
    const prompt = templateIds(start, true).length;
    const small = await startFakeOpenAIServer({ maxModelLen: prompt + 10 });
    try {
      const policy = new TokensPolicy({ ...options, baseUrl: small.baseUrl });
      small.replyCompletion({ text: '<tool: bash>\nls\n</tool>' });
      const turn = await policy.complete(request(start));
      expect((posts(small, '/v1/completions')[0]!.body as { max_tokens: number }).max_tokens).toBe(10);
      expect(turn.finishReason).toBe('length');
      const error = await rejection(policy.complete(request([...start, turn.message, { role: 'user', content: 'x'.repeat(50) }])));
      expect(error.code).toBe('policy-context-overflow');
      expect(posts(small, '/v1/completions')).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  it('maps a server-side context overflow to its own code', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: server.baseUrl });
    server.fail({ type: 'context-overflow' });
    expect((await rejection(policy.complete(request(start)))).code).toBe('policy-context-overflow');
  });

  it('forgets an episode on endEpisode', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: server.baseUrl });
    server.replyCompletion({ text: '<tool: bash>\nls\n</tool>' }, { text: '<tool: bash>\npwd\n</tool>' });
    const first = await policy.complete(request(start));
    policy.endEpisode('ep-1');
    const second = await policy.complete(request([...start, first.message, toolResult(first, 'a')]));
    expect(second.sample!.retokenizationWarnings).toBe(1);
  });
});

/** Length of the conversation up to and including its last assistant message. */
function lastAssistantEnd(messages: ChatMessage[]): number {
  let end = messages.length;
  while (end > 0 && messages[end - 1]!.role !== 'assistant') end--;
  return end;
}

/** A port nothing listens on: bind an ephemeral port, then release it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
