import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/policy/create-policy.js';
import type { ChatMessage, PolicyRequest, ToolSpec } from '../../src/policy/policy.js';
import { describeServerFacts } from '../../src/policy/preflight/describe-server-facts.js';
import { runPreflight, type PreflightOptions } from '../../src/policy/preflight/run-preflight.js';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeOpenAIServerOptions } from '../doubles/fake-openai-server.js';
import { VLLM_NO_TOOL_PARSER } from '../doubles/fake-server-flavor.js';
import { runCli } from '../helpers/cli.js';
import { rejection } from '../helpers/rejection.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: FakeOpenAIServerOptions): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAIServer({ model: 'Qwen/Qwen3-8B', ...options });
  servers.push(server);
  return server;
}

function preflight(server: { baseUrl: string }, extra: Partial<PreflightOptions> = {}) {
  return runPreflight({ endpoint: { root: server.baseUrl }, mode: 'chat', ...extra });
}


const probes = (server: FakeOpenAIServer) => server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as Record<string, unknown>);

describe('preflight: what a model server serves and how it takes tool calls', () => {
  it('vLLM with a tool parser: its max_model_len, native tool calls, usage', async () => {
    const server = await serve({ flavor: 'vllm', maxModelLen: 32_768 });
    const facts = await preflight(server);
    expect(facts).toEqual({
      root: server.baseUrl, models: ['Qwen/Qwen3-8B'], model: 'Qwen/Qwen3-8B', context: { tokens: 32_768, source: 'vllm /v1/models max_model_len' },
      toolProtocol: 'native', reportsUsage: true, sendsSeed: true, notes: [],
    });
    expect(describeServerFacts(facts, 'chat')).toBe(`Qwen/Qwen3-8B at ${server.baseUrl}: context 32768 tokens (vllm /v1/models max_model_len), native tool calls`);
    // The probe asks for one token with one tool, as a native turn would.
    expect(probes(server)).toEqual([expect.objectContaining({ max_tokens: 1, tool_choice: 'auto', seed: 0, tools: [expect.objectContaining({ type: 'function' })] })]);
  });

  it('vLLM without a tool parser: auto falls back to the text protocol with one line', async () => {
    const server = await serve({ flavor: 'vllm', maxModelLen: 32_768, toolParser: false });
    const facts = await preflight(server, { toolProtocol: 'auto' });
    expect(facts.toolProtocol).toBe('text');
    expect(facts.reportsUsage).toBe(true);
    expect(facts.notes).toEqual([`${server.baseUrl} refuses native tool calls (${VLLM_NO_TOOL_PARSER}): using ssr's text protocol instead (--tool-protocol text skips this probe)`]);
    expect(probes(server).map((body) => 'tools' in body)).toEqual([true, false]);
  });

  it('vLLM without a tool parser: --tool-protocol native is refused with the server flags that fix it', async () => {
    const server = await serve({ flavor: 'vllm', toolParser: false });
    const error = await rejection(preflight(server, { toolProtocol: 'native' }));
    expect(error.code).toBe('usage');
    expect(error.message).toBe(
      `${server.baseUrl} refuses native tool calls (${VLLM_NO_TOOL_PARSER}): start the server with a tool-call parser (vLLM: --enable-auto-tool-choice --tool-call-parser NAME) or pass --tool-protocol text`,
    );
  });

  it('--tool-protocol text never offers tools', async () => {
    const server = await serve({ flavor: 'vllm', toolParser: false });
    expect((await preflight(server, { toolProtocol: 'text' })).toolProtocol).toBe('text');
    expect(probes(server).every((body) => !('tools' in body))).toBe(true);
  });

  it('SGLang: the context from /get_server_info; tools accepted', async () => {
    const server = await serve({ flavor: 'sglang', maxModelLen: 65_536, toolParser: false });
    const facts = await preflight(server);
    expect(facts.context).toEqual({ tokens: 65_536, source: 'sglang /get_server_info' });
    expect(facts.toolProtocol).toBe('native');
  });

  it('SGLang without a tool parser returns the call as text: --tool-parser reads it in the model\'s format', async () => {
    const server = await serve({ flavor: 'sglang', toolParser: false });
    const policy = await createPolicy({ policy: 'openai', baseUrl: server.baseUrl, env: {}, toolParser: 'qwen3_coder', log: () => {} });
    server.replyChat({ type: 'text', content: 'Run it.\n<tool_call>\n<function=bash>\n<parameter=command>\npytest -q tests/\n</parameter>\n</function>\n</tool_call>' });
    const turn = await policy.complete({ episodeId: 'e', role: 'solver', messages: [{ role: 'user', content: 'go' }], tools: [] });
    expect(turn.toolCalls).toEqual([{ id: 'call_0', name: 'bash', arguments: { command: 'pytest -q tests/' } }]);
    expect(turn.message.content).toBe('Run it.');
  });

  it.each<[string, number | undefined, PreflightOptions['maxContext'], { tokens: number; source: string } | null, number]>([
    ['a server that reports nothing, no flag: unknown, said once', undefined, undefined, null, 1],
    ['a server that reports nothing, --max-context', undefined, 16_000, { tokens: 16_000, source: '--max-context' }, 0],
    ['vLLM 32k and a smaller --max-context: the flag', 32_768, 8_192, { tokens: 8_192, source: '--max-context' }, 0],
    ['vLLM 32k and a larger --max-context: the server', 32_768, 131_072, { tokens: 32_768, source: 'vllm /v1/models max_model_len' }, 0],
  ])('context: %s', async (_case, served, maxContext, expected, notes) => {
    const server = await serve(served === undefined ? {} : { flavor: 'vllm', maxModelLen: served });
    const facts = await preflight(server, { maxContext });
    expect(facts.context).toEqual(expected);
    expect(facts.notes).toHaveLength(notes);
    if (notes) expect(facts.notes[0]).toContain('pass --max-context N');
  });

  it('tokens mode: /tokenize is checked and its max_model_len read; no chat probe', async () => {
    const server = await serve({ maxModelLen: 40_960 });
    const facts = await preflight(server, { mode: 'tokens' });
    expect(facts.context).toEqual({ tokens: 40_960, source: 'tokenize max_model_len' });
    expect(probes(server)).toEqual([]);
    expect(server.requests.some((r) => r.path === '/tokenize')).toBe(true);
  });

  it('tokens mode, --sampler-logprobs processed: a vLLM returning processed log-probs passes the top_k 1 probe', async () => {
    const server = await serve({ flavor: 'vllm', logprobsMode: 'processed' });
    await preflight(server, { mode: 'tokens', samplerLogprobs: 'processed' });
    const probe = server.requests.find((r) => r.path === '/v1/completions')!.body as Record<string, unknown>;
    expect(probe).toMatchObject({ top_k: 1, repetition_penalty: 1, presence_penalty: 0, frequency_penalty: 0, min_p: 0, logprobs: 1 });
  });
});

describe('preflight: bad input gets one line (URL, what was expected, the fix), not a discarded run', () => {
  it('a server that is down', async () => {
    const port = await closedPort();
    const root = `http://127.0.0.1:${port}`;
    const began = Date.now();
    const error = await rejection(preflight({ baseUrl: root }));
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(error.message).toBe(`cannot reach ${root}/v1/models: ECONNREFUSED after 2 attempts: expected an OpenAI-compatible server at ${root}: start it, or point --base-url at it`);
  });

  it('a server that answers HTML', async () => {
    const server = await serve({});
    server.fail({ type: 'html' });
    const error = await rejection(preflight(server));
    expect(error.message).toBe(`HTML instead of JSON from ${server.baseUrl}/v1/models (page "Sign in"): expected an OpenAI-compatible API (check --base-url)`);
  });

  it('a server that lists no models', async () => {
    const server = await serve({});
    server.fail({ type: 'status', status: 200, body: '{"object": "list", "data": []}' });
    const error = await rejection(preflight(server));
    expect(error.message).toBe(`${server.baseUrl}/v1/models: expected {"data": [{"id": "<model>"}, …]} listing at least one model, got {"object":"list","data":[]}: check --base-url`);
  });

  it('a model the server does not serve', async () => {
    const server = await serve({ flavor: 'vllm' });
    const error = await rejection(preflight(server, { model: 'Qwen/Qwen3-32B' }));
    expect(error.message).toBe(`${server.baseUrl}/v1/models does not list the model "Qwen/Qwen3-32B" (it serves Qwen/Qwen3-8B): fix --model`);
  });

  it('a server that returns no usage: a note, the run goes on', async () => {
    const server = await serve({ flavor: 'vllm', omitUsage: true });
    const facts = await preflight(server);
    expect(facts.reportsUsage).toBe(false);
    expect(facts.notes).toEqual([`${server.baseUrl}/v1/chat/completions returns no "usage": prompt tokens are estimated (~3 characters a token); pass --max-context N if turns still overflow`]);
  });

  it('a context smaller than one prompt', async () => {
    const server = await serve({ flavor: 'vllm', maxModelLen: 2_048 });
    const error = await rejection(preflight(server, { promptTokens: 3_000 }));
    expect(error.code).toBe('usage');
    expect(error.message).toBe(
      `Qwen/Qwen3-8B at ${server.baseUrl} has a context of 2048 tokens (vllm /v1/models max_model_len), smaller than one prompt (~3000 tokens) plus 256 for a reply: ` +
        'serve it with a longer context (vLLM --max-model-len, SGLang --context-length) or use another --model',
    );
  });

  it.each([
    ['temperature', '--temperature', { temperature: 0.7 }],
    ['top_p', '--top-p', { top_p: 0.9 }],
  ])('a server that rejects %s', async (field, flag, sampling) => {
    const server = await serve({ flavor: 'vllm', rejectParams: [field] });
    const error = await rejection(preflight(server, { sampling }));
    expect(error.message).toBe(`${server.baseUrl}/v1/chat/completions rejects the request field "${field}" (Unrecognized request argument supplied: ${field}): leave ${flag} out`);
  });

  it('a server that rejects seed: turns go without one, said once', async () => {
    const server = await serve({ flavor: 'vllm', rejectParams: ['seed'] });
    const facts = await preflight(server);
    expect(facts.sendsSeed).toBe(false);
    expect(facts.notes).toEqual([`${server.baseUrl}/v1/chat/completions rejects "seed" (Unrecognized request argument supplied: seed): turns are sent without one, so sampling is not reproducible`]);
    const policy = await createPolicy({ policy: 'openai', baseUrl: server.baseUrl, env: {}, log: () => {} });
    server.replyChat({ type: 'text', content: '<tool: bash>\nls\n</tool>' });
    const turn = await policy.complete({ episodeId: 'e', role: 'solver', messages: [{ role: 'user', content: 'go' }], tools: [], seed: 5 });
    expect(turn.toolCalls[0]!.name).toBe('bash');
  });

  it('--sampler-logprobs processed against a vLLM that returns raw log-probs: refused with the server flag', async () => {
    const server = await serve({ flavor: 'vllm' });
    await expect(preflight(server, { mode: 'tokens', samplerLogprobs: 'processed' })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(new RegExp(`${server.baseUrl}/v1/completions sampled 8 tokens with top_k 1 and returned log-probs -0\\.010, .*raw log-probs: drop --sampler-logprobs processed .*--logprobs-mode processed_logprobs`)),
    });
    // Raw log-probs claimed (the default): nothing to probe.
    await preflight(server, { mode: 'tokens' });
  });

  it('tokens mode against a server without /tokenize (an OpenAI-compatible proxy)', async () => {
    const proxy = createHttpServer((req, res) => {
      const models = req.url === '/v1/models';
      res.writeHead(models ? 200 : 404, { 'content-type': 'application/json' }).end(models ? '{"data": [{"id": "gpt-x"}]}' : '{"detail": "Not Found"}');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const root = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const error = await rejection(preflight({ baseUrl: root }, { mode: 'tokens' }));
      expect(error.message).toBe(
        `HTTP 404 from ${root}/tokenize: {"detail": "Not Found"} (check --base-url and --model): --policy tokens needs /tokenize with chat messages (vLLM, or trainer/'s service): use --policy openai with other servers`,
      );
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});

describe('a vLLM server with a 32k context: turns fit it instead of being discarded at turn 0', () => {
  const tools: ToolSpec[] = [{ name: 'bash', description: 'Run a command.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }];
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are the solver.\n'.repeat(200) },
    { role: 'user', content: 'Make the tests pass.' },
  ];
  // What the agent loop asks for at turn 0 with its default 128k budget.
  const request = (): PolicyRequest => ({ episodeId: 'ep', role: 'solver', messages: [...messages], tools, maxTokens: 128_000 - 1_100, seed: 1 });

  it('without the preflight the server answers 400 (what every episode hit before)', async () => {
    const server = await serve({ flavor: 'vllm', maxModelLen: 32_768, toolParser: false });
    const policy = await createPolicy({ policy: 'openai', baseUrl: server.baseUrl, env: {}, preflight: false });
    const error = await rejection(policy.complete(request()));
    expect(error.code).toBe('policy-unavailable');
    expect(error.message).toContain('tool choice requires --enable-auto-tool-choice');
    const text = await createPolicy({ policy: 'openai', baseUrl: server.baseUrl, env: {}, preflight: false, toolProtocol: 'text' });
    expect((await rejection(text.complete(request()))).code).toBe('policy-context-overflow');
  });

  it('with it: text protocol, max_tokens clamped to what the context leaves, and the agent learns the context', async () => {
    const server = await serve({ flavor: 'vllm', maxModelLen: 32_768, toolParser: false });
    const lines: string[] = [];
    const policy = await createPolicy({ policy: 'openai', baseUrl: server.baseUrl, env: {}, log: (line) => lines.push(line), promptTokens: 1_200 });
    expect(lines).toEqual([
      `model server: Qwen/Qwen3-8B at ${server.baseUrl}: context 32768 tokens (vllm /v1/models max_model_len), ssr's text protocol`,
      `model server: ${server.baseUrl} refuses native tool calls (${VLLM_NO_TOOL_PARSER}): using ssr's text protocol instead (--tool-protocol text skips this probe)`,
    ]);
    expect(policy.contextLength).toBe(32_768);
    server.replyChat({ type: 'text', content: 'Look.\n<tool: bash>\nls\n</tool>' }, { type: 'text', content: '<tool: bash>\npytest -q\n</tool>' });
    const first = await policy.complete(request());
    expect(first.toolCalls[0]!.arguments).toEqual({ command: 'ls' });
    const second = await policy.complete({
      ...request(),
      messages: [...messages, first.message, { role: 'tool', content: 'a.py\n'.repeat(500), toolCallId: first.toolCalls[0]!.id, name: 'bash' }],
    });
    expect(second.toolCalls[0]!.arguments).toEqual({ command: 'pytest -q' });
    const turns = probes(server).filter((body) => body.max_tokens !== 1);
    for (const body of turns) {
      const prompt = Math.ceil(JSON.stringify(body.messages).length / 4);
      expect(body.max_tokens as number).toBeLessThan(32_768 - prompt);
      expect(body.max_tokens as number).toBeGreaterThan(32_768 - 3 * prompt);
    }
    // Turn 2 builds on the server's own count of turn 1: its cap shrinks by about what was added.
    expect((turns[0]!.max_tokens as number) - (turns[1]!.max_tokens as number)).toBeGreaterThan(500);
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

describe('ssr doctor --base-url', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('shows what the server serves and the fallback, as doctor lines', async () => {
    const server = await serve({ flavor: 'vllm', maxModelLen: 32_768, toolParser: false });
    const { stdout } = await runCli(['doctor', '--base-url', `${server.baseUrl}/v1`, '--json']);
    const { checks } = JSON.parse(stdout) as { checks: Array<{ name: string; status: string; detail: string }> };
    expect(checks.filter((check) => check.name === 'model server')).toEqual([
      { name: 'model server', status: 'ok', detail: `Qwen/Qwen3-8B at ${server.baseUrl}: context 32768 tokens (vllm /v1/models max_model_len), ssr's text protocol` },
      { name: 'model server', status: 'ok', detail: expect.stringContaining('refuses native tool calls') },
    ]);
  });

  it('a server that is down is a failed line and exit 2', async () => {
    const root = `http://127.0.0.1:${await closedPort()}`;
    const { code, stdout } = await runCli(['doctor', '--base-url', root]);
    expect(stdout).toMatch(new RegExp(`^FAILED +model server +cannot reach ${root}/v1/models: ECONNREFUSED after 2 attempts: .*point --base-url at it$`, 'm'));
    expect(code).toBe(2);
  });
});
