import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIPolicy, type OpenAIPolicyOptions } from '../../src/policy/openai-policy.js';
import type { ChatMessage, PolicyRequest, PolicyTurn, ToolSpec } from '../../src/policy/policy.js';
import { TokensPolicy, type TokensPolicyOptions } from '../../src/policy/tokens-policy.js';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeRequest } from '../doubles/fake-openai-server.js';
import { SAMPLED_ID_OFFSET, toyTokenizeChat, type ToyChatMessage } from '../doubles/toy-tokenizer.js';
import { toOpenAIMessages, toOpenAITools } from '../../src/policy/openai-messages.js';
import { isEngineError } from '../../src/util/engine-error.js';
import { rejection } from '../helpers/rejection.js';

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

  // Multi-turn sequences against real chat templates: test/integration/tokens-policy-templates.test.ts.

  it('samples at temperature 1, top-p 1, no top-k by default and records the settings on the sample', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: server.baseUrl });
    server.replyCompletion({ text: '<tool: bash>\nls\n</tool>' });
    const turn = await policy.complete(request(start));
    const sent = posts(server, '/v1/completions')[0]!.body as Record<string, unknown>;
    // Every other parameter at its neutral value, explicitly: a server would fill an absent one from its generation config.
    expect(sent).toMatchObject({ temperature: 1, top_p: 1, top_k: -1, repetition_penalty: 1, presence_penalty: 0, frequency_penalty: 0, min_p: 0 });
    expect(sent).not.toHaveProperty('logit_bias');
    expect(turn.sample!.sampling).toEqual({ temperature: 1, topP: 1, topK: -1, logprobs: 'raw' });
    expect(turn.sample!.promptTokenIds).toEqual(templateIds(start, true));
  });

  it.each<[string, Partial<TokensPolicyOptions>]>([
    ['temperature', { temperature: 0.7 }],
    ['top-p', { topP: 0.5 }],
    ['top-k', { topK: 20 }],
  ])('refuses %s other than the raw distribution with raw log-probs, naming the fix', (_name, sampling) => {
    const error = (() => {
      try {
        new TokensPolicy({ ...options, baseUrl: server.baseUrl, ...sampling });
      } catch (e) {
        return e;
      }
    })();
    expect(isEngineError(error) && error.code).toBe('usage');
    expect(String((error as Error).message)).toMatch(/temperature 1, top-p 1 and no top-k.*--sampler-logprobs processed/);
  });

  it('with processed log-probs, sends the settings and records them with the logprobs mode', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: server.baseUrl, temperature: 0.6, topP: 0.95, topK: 20, samplerLogprobs: 'processed' });
    server.replyCompletion({ text: '<tool: bash>\nls\n</tool>' });
    const turn = await policy.complete(request(start));
    expect(posts(server, '/v1/completions')[0]!.body).toMatchObject({ temperature: 0.6, top_p: 0.95, top_k: 20 });
    expect(turn.sample!.sampling).toEqual({ temperature: 0.6, topP: 0.95, topK: 20, logprobs: 'processed' });
  });

  it('labels a turn with the version it was sent to, also when its answer arrives after new weights were published', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: server.baseUrl });
    let release!: () => void;
    server.fail({ type: 'delay', ms: 0 }); // the /tokenize before it
    server.fail({ type: 'hold', until: new Promise<void>((resolve) => (release = resolve)) });
    server.replyCompletion({ text: '<tool: bash>\nls\n</tool>' }, { text: '<tool: bash>\npwd\n</tool>' });
    const pending = policy.complete(request(start));
    while (posts(server, '/v1/completions').length === 0) await new Promise((resolve) => setImmediate(resolve));
    // The sampler loads version 1 (a new adapter name) while the request sent to version 0 runs.
    policy.useModel('ssr-run-v1');
    policy.advanceVersion(1);
    release();
    expect((await pending).sample!.policyVersion).toBe(0);
    const next = await policy.complete(request(start, { episodeId: 'ep-2' }));
    expect(next.sample!.policyVersion).toBe(1);
    expect(posts(server, '/v1/completions').map((post) => (post.body as { model: string }).model)).toEqual(['fake-model', 'ssr-run-v1']);
  });

  it('renders history it did not sample anew, marked state-lost', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: server.baseUrl });
    server.replyCompletion({ text: '<tool: bash>\nls\n</tool>' });
    const assistant: ChatMessage = { role: 'assistant', content: '', toolCalls: [{ id: 'c0', name: 'bash', arguments: { command: 'ls' } }] };
    const turn = await policy.complete(request([...start, assistant, { role: 'tool', content: 'x', toolCallId: 'c0', name: 'bash' }]));
    expect(turn.sample!.unproven).toMatchObject({ code: 'state-lost' });
  });

  it('reports a format error with the sample kept (RL trains on malformed turns too)', async () => {
    const policy = new TokensPolicy({ ...options, baseUrl: server.baseUrl });
    server.replyCompletion({ text: 'I am not sure what to do.' });
    const turn = await policy.complete(request(start));
    expect(turn.formatError).toContain('No tool call found');
    // Its bytes, then the end-of-turn token it stopped on.
    expect(turn.sample!.completionTokenIds).toHaveLength('I am not sure what to do.'.length + 1);
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

});

/** A port nothing listens on: bind an ephemeral port, then release it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
