import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatPromptTokens, flavorChatRejection, flavorRoutes, modelEntry, overflowBody, type FakeGenerationDefaults, type FakeServerFlavor } from './fake-server-flavor.js';
import { TOY_END_OF_TURN, toyDecode, toyEncode, toyTokenizeChat, type ToyChatMessage } from './toy-tokenizer.js';

/** A scripted `/v1/chat/completions` answer. String `arguments` are sent verbatim (to test undecodable JSON). */
export type FakeChatReply =
  | { type: 'tool-calls'; content?: string; calls: Array<{ name: string; arguments: unknown; id?: string }> }
  | { type: 'text'; content: string; finishReason?: 'stop' | 'length' };

/** A scripted `/v1/completions` answer, encoded with the toy tokenizer. */
export interface FakeCompletion {
  text: string;
  /** `vllm`: ids as `logprobs.tokens` "token_id:N" strings; `simple`: `choices[0].token_ids` (our trainer's shape). */
  shape?: 'vllm' | 'simple';
  /** Sent as top-level `policy_version`. */
  policyVersion?: number;
  /** With `stopTokenId` set: end on a token other than the stop token (e.g. EOS where the template closes with `<|im_end|>`). */
  stopWith?: number;
}

/** A failure served instead of the next request(s), whatever the route. */
export type FakeFailure =
  | { type: 'status'; status: number; body?: string; retryAfterSeconds?: number }
  /** Destroy the connection without an answer. */
  | { type: 'drop' }
  /** Answer normally after `ms`, unless the client has given up by then. */
  | { type: 'delay'; ms: number }
  /** Answer normally once `until` resolves (a test publishes new weights while the request runs). */
  | { type: 'hold'; until: Promise<void> }
  /** HTTP 400 worded the way vLLM words a prompt longer than the context. */
  | { type: 'context-overflow' }
  /** HTTP 200 with an HTML page (a web UI or a proxy's login page where the API was expected). */
  | { type: 'html' };

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeOpenAIServerOptions {
  model?: string;
  /** Added to every sampled token id (see SAMPLED_ID_OFFSET). Default 0. */
  sampledIdOffset?: number;
  /** Reported by /tokenize; /v1/completions rejects prompt + max_tokens beyond it. Default 32768. */
  maxModelLen?: number;
  /**
   * Serve `/tokenize` from this real server (the trainer service with `--chat-template`: a real
   * Jinja template and its byte tokenizer) instead of the toy template; `max_model_len` stays ours.
   */
  tokenizeUrl?: string;
  /**
   * The id a completion that fits in `max_tokens` ends with (finish `stop`), included in the
   * sampled ids as vLLM includes EOS: the template's end-of-turn token (`<|im_end|>`). Default:
   * the toy template's {@link TOY_END_OF_TURN}, or none with `tokenizeUrl`.
   */
  stopTokenId?: number;
  /**
   * Plays a real server's behaviours (see fake-server-flavor.ts): where it reports its context,
   * chat requests whose prompt + max_tokens exceed it answered 400, usage counted. Unset: a lax
   * OpenAI-compatible server (no context reported, fixed usage).
   */
  flavor?: FakeServerFlavor;
  /** false: started without a tool-call parser (vLLM answers `tool_choice: auto` with 400). Default true. */
  toolParser?: boolean;
  /** Leave `usage` out of chat responses, as some proxies do. */
  omitUsage?: boolean;
  /** Request fields the server rejects with HTTP 400 when present (as strict hosted APIs do). */
  rejectParams?: string[];
  /**
   * vLLM `--logprobs-mode`: `raw_logprobs` (the default: the model's own log-probs) or
   * `processed_logprobs` (after temperature / top-k / top-p). Shows in what a top_k 1 request gets
   * back: processed, log-prob 0 for the only token left; raw, the model's (below 0).
   */
  logprobsMode?: 'raw' | 'processed';
  /** The generation defaults the server reports (with `flavor`), see fake-server-flavor.ts. */
  generationDefaults?: FakeGenerationDefaults;
}

export interface FakeOpenAIServer {
  /** `http://127.0.0.1:PORT` (no `/v1`). */
  readonly baseUrl: string;
  /** Every request received, failed ones included, in order. */
  readonly requests: FakeRequest[];
  replyChat(...replies: FakeChatReply[]): void;
  replyCompletion(...completions: FakeCompletion[]): void;
  /** Serve `failure` for the next `times` requests (Infinity: for ever). */
  fail(failure: FakeFailure, times?: number): void;
  close(): Promise<void>;
}

/** Deterministic logprob of the i-th sampled token, so tests can check alignment. */
export function fakeLogprob(index: number): number {
  return -0.01 * ((index % 9) + 1);
}

/**
 * A real HTTP server speaking the OpenAI-compatible subset the policies use — the one fake of the
 * project, at the model-endpoint boundary. Listens on 127.0.0.1 with an ephemeral port.
 */
export async function startFakeOpenAIServer(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  const model = options.model ?? 'fake-model';
  const maxModelLen = options.maxModelLen ?? 32_768;
  const chats: FakeChatReply[] = [];
  const completions: FakeCompletion[] = [];
  const failures: Array<{ failure: FakeFailure; times: number }> = [];
  const requests: FakeRequest[] = [];

  const routes: Record<string, (body: Record<string, unknown>) => [number, unknown] | Promise<[number, unknown]>> = {
    'GET /v1/models': () => [200, { object: 'list', data: [modelEntry(model, maxModelLen, options.flavor)] }],
    ...flavorRoutes(maxModelLen, options.flavor, options.generationDefaults),
    'POST /v1/chat/completions': (body) => {
      const rejection = flavorChatRejection(body, { maxModelLen, ...options });
      if (rejection) return rejection;
      const usage = options.omitUsage ? undefined : options.flavor ? chatPromptTokens(body) : 100;
      // A one-token request (what a preflight probe asks) gets one token and consumes no scripted reply.
      if (body.max_tokens === 1) return [200, chatResponse(model, { type: 'text', content: '', finishReason: 'length' }, usage)];
      const reply = chats.shift();
      return reply ? [200, chatResponse(model, reply, usage)] : [400, { error: { message: 'fake-openai-server: no scripted chat reply left' } }];
    },
    'POST /tokenize': (body) => {
      if (options.tokenizeUrl !== undefined) return forwardTokenize(options.tokenizeUrl, body, maxModelLen);
      if (!Array.isArray(body.messages)) return [400, { error: { message: 'messages must be an array' } }];
      const toolNames = Array.isArray(body.tools) ? body.tools.map((tool: { function?: { name?: string } }) => String(tool.function?.name)) : undefined;
      const addGenerationPrompt = body.add_generation_prompt !== false;
      const tokens = toyTokenizeChat(body.messages as ToyChatMessage[], { addGenerationPrompt, toolNames });
      return [200, { count: tokens.length, max_model_len: maxModelLen, tokens }];
    },
    'POST /v1/completions': (body) => {
      const prompt = body.prompt;
      if (!Array.isArray(prompt) || !prompt.every((id) => Number.isInteger(id))) return [400, { error: { message: 'prompt must be a list of token ids' } }];
      const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : 16;
      if (prompt.length + maxTokens > maxModelLen) return [400, overflowBody(maxModelLen, prompt.length + maxTokens)];
      // Greedy (top_k 1) requests are probes: answered from the model, no scripted completion consumed.
      if (body.top_k === 1) return [200, greedyResponse(model, Math.min(maxTokens, 8), options.logprobsMode ?? 'raw')];
      const completion = completions.shift();
      if (!completion) return [400, { error: { message: 'fake-openai-server: no scripted completion left' } }];
      const stopTokenId = options.stopTokenId ?? (options.tokenizeUrl === undefined ? TOY_END_OF_TURN : undefined);
      return [200, completionResponse(model, completion, maxTokens, options.sampledIdOffset ?? 0, stopTokenId)];
    },
  };

  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let closed = false;
    res.on('close', () => (closed = true));
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;
    let body: unknown;
    try {
      body = raw === '' ? {} : JSON.parse(raw);
    } catch {
      body = raw;
    }
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    const failure = takeFailure();
    if (failure?.type === 'drop') return void req.socket.destroy();
    if (failure?.type === 'status') {
      const headers: Record<string, string> = failure.retryAfterSeconds === undefined ? {} : { 'retry-after': String(failure.retryAfterSeconds) };
      return send(res, failure.status, failure.body ?? `{"error":{"message":"fake failure ${failure.status}"}}`, headers);
    }
    if (failure?.type === 'context-overflow') return send(res, 400, JSON.stringify(overflowBody(maxModelLen, maxModelLen + 1)));
    if (failure?.type === 'html') return send(res, 200, '<!doctype html><html><head><title>Sign in</title></head><body>Please sign in</body></html>', { 'content-type': 'text/html' });
    if (failure?.type === 'delay' || failure?.type === 'hold') {
      await (failure.type === 'hold' ? failure.until : new Promise((resolve) => setTimeout(resolve, failure.ms)));
      // A client that timed out must not consume a scripted reply meant for its retry.
      if (closed) return;
    }
    const route = routes[`${req.method} ${path}`];
    if (!route) return send(res, 404, JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
    if (typeof body !== 'object' || body === null) return send(res, 400, JSON.stringify({ error: { message: 'body must be a JSON object' } }));
    const [status, payload] = await route(body as Record<string, unknown>);
    send(res, status, JSON.stringify(payload));
  }

  function takeFailure(): FakeFailure | undefined {
    const next = failures[0];
    if (!next) return undefined;
    if (--next.times <= 0) failures.shift();
    return next.failure;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    replyChat: (...replies) => void chats.push(...replies),
    replyCompletion: (...scripted) => void completions.push(...scripted),
    fail: (failure, times = 1) => void failures.push({ failure, times }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function chatResponse(model: string, reply: FakeChatReply, promptTokens: number | undefined): unknown {
  const toolCalls =
    reply.type === 'tool-calls'
      ? reply.calls.map((call, i) => ({
          id: call.id ?? `fake_call_${i}`,
          type: 'function',
          function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
        }))
      : undefined;
  const content = reply.content ?? null;
  const finishReason = reply.type === 'tool-calls' ? 'tool_calls' : (reply.finishReason ?? 'stop');
  const completionTokens = toyEncode(JSON.stringify({ content, toolCalls })).length;
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: finishReason }],
    ...(promptTokens === undefined ? {} : { usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } }),
  };
}

async function forwardTokenize(url: string, body: Record<string, unknown>, maxModelLen: number): Promise<[number, unknown]> {
  const response = await fetch(`${url}/tokenize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, unknown>;
  return [response.status, response.ok ? { ...answer, max_model_len: maxModelLen } : answer];
}

function completionResponse(model: string, completion: FakeCompletion, maxTokens: number, offset: number, stopTokenId: number | undefined): unknown {
  const stop = completion.stopWith ?? stopTokenId;
  const all = [...toyEncode(completion.text, offset), ...(stop === undefined ? [] : [stop])];
  const ids = all.slice(0, maxTokens);
  const logprobs = ids.map((_, i) => fakeLogprob(i));
  // The stop token is in the ids, not in the text (as vLLM does).
  const textIds = stop !== undefined && ids.length === all.length ? ids.slice(0, -1) : ids;
  const choice =
    completion.shape === 'simple'
      ? { index: 0, text: toyDecode(textIds), token_ids: ids, logprobs: { token_logprobs: logprobs } }
      : { index: 0, text: toyDecode(textIds), logprobs: { tokens: ids.map((id) => `token_id:${id}`), token_logprobs: logprobs, top_logprobs: null, text_offset: null } };
  return {
    id: 'cmpl-fake',
    object: 'text_completion',
    model,
    choices: [{ ...choice, finish_reason: ids.length < all.length ? 'length' : 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: ids.length },
    ...(completion.policyVersion === undefined ? {} : { policy_version: completion.policyVersion }),
  };
}

/** `count` tokens sampled with top_k 1, with the log-probs each `--logprobs-mode` returns. */
function greedyResponse(model: string, count: number, mode: 'raw' | 'processed'): unknown {
  const ids = toyEncode('a'.repeat(count));
  const logprobs = ids.map((_, i) => (mode === 'processed' ? 0 : fakeLogprob(i)));
  return { id: 'cmpl-fake', object: 'text_completion', model, choices: [{ index: 0, text: toyDecode(ids), logprobs: { tokens: ids.map((id) => `token_id:${id}`), token_logprobs: logprobs }, finish_reason: 'length' }] };
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
