import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, PolicyRequest, PolicyTurn, TokenSample, ToolSpec } from '../../src/policy/policy.js';
import { buildTokenTrajectory } from '../../src/policy/token-trajectory.js';
import { TokensPolicy, type TokensPolicyOptions } from '../../src/policy/tokens-policy.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../doubles/fake-openai-server.js';
import { SAMPLED_ID_OFFSET } from '../doubles/toy-tokenizer.js';
import { ROOT } from './selfplay-helpers.js';
import { requireTrainerPython, startTrainerService } from './trainer-service.js';

/**
 * The tokens policy against real chat templates (test/fixtures/chat-templates, rendered by the
 * trainer service's byte tokenizer with `--chat-template`, real Jinja): the fake server scripts the
 * completions (sampled ids shifted by SAMPLED_ID_OFFSET, ending on `<|im_end|>` as vLLM includes the
 * stop token) and forwards `/tokenize` to the service.
 */
const BOS = 256;
const EOS = 257;
const IM_START = 258;
const IM_END = 259;
const NEWLINE = 10;

const TEMPLATES = ['qwen3-like', 'chatml', 'elide-old-tool-results', 'numbered-tool-results', 'echo-reply'] as const;
type TemplateName = (typeof TEMPLATES)[number];

const tools: ToolSpec[] = [{ name: 'bash', description: 'Run a command.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }];
const start: ChatMessage[] = [
  { role: 'system', content: 'You are the solver.' },
  { role: 'user', content: 'Make the tests pass.' },
];

/** The byte tokenizer's decoding, sampled ids included: how a test reads a sequence as text. */
function decode(ids: number[]): string {
  const specials: Record<number, string> = { [BOS]: '<|bos|>', [EOS]: '<|eos|>', [IM_START]: '<|im_start|>', [IM_END]: '<|im_end|>' };
  let text = '';
  let bytes: number[] = [];
  for (const id of ids) {
    const byte = id >= SAMPLED_ID_OFFSET ? id - SAMPLED_ID_OFFSET : id;
    if (byte < 256) {
      bytes.push(byte);
      continue;
    }
    text += Buffer.from(bytes).toString('utf8') + (specials[byte] ?? `<|${byte}|>`);
    bytes = [];
  }
  return text + Buffer.from(bytes).toString('utf8');
}

function startService(template: TemplateName): Promise<{ child: ChildProcess; url: string }> {
  const chatTemplate = join(ROOT, 'test/fixtures/chat-templates', `${template}.jinja`);
  return startTrainerService(['--model-config', '{"d_model":8,"n_layers":1,"n_heads":1,"d_ff":16}', '--chat-template', chatTemplate]);
}

const services = new Map<TemplateName, { child: ChildProcess; url: string }>();
beforeAll(async () => {
  requireTrainerPython();
  await Promise.all(TEMPLATES.map(async (name) => services.set(name, await startService(name))));
}, 600_000);
afterAll(() => {
  for (const service of services.values()) service.child.kill('SIGKILL');
});

async function withServer<T>(template: TemplateName, run: (server: FakeOpenAIServer) => Promise<T>): Promise<T> {
  const server = await startFakeOpenAIServer({ sampledIdOffset: SAMPLED_ID_OFFSET, tokenizeUrl: services.get(template)!.url, stopTokenId: IM_END });
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

function request(messages: ChatMessage[]): PolicyRequest {
  return { episodeId: 'ep-1', role: 'solver', messages, tools };
}

function toolResult(turn: PolicyTurn, content: string): ChatMessage {
  return { role: 'tool', content, toolCallId: turn.toolCalls[0]!.id, name: turn.toolCalls[0]!.name };
}

/** Plays the replies as one episode (a tool result after each but the last); returns the samples and what the server was sent. */
async function play(server: FakeOpenAIServer, options: TokensPolicyOptions, replies: string[], results: string[]) {
  const policy = new TokensPolicy({ model: 'tiny', maxTokens: 200, retryBaseDelayMs: 10, env: {}, baseUrl: server.baseUrl, ...options });
  server.replyCompletion(...replies.map((text) => ({ text })));
  const messages = [...start];
  const samples: TokenSample[] = [];
  for (const [k] of replies.entries()) {
    const turn = await policy.complete(request(messages));
    samples.push(turn.sample!);
    messages.push(turn.message);
    if (k < results.length) messages.push(toolResult(turn, results[k]!));
  }
  const sent = server.requests.filter((r) => r.path === '/v1/completions').map((r) => (r.body as { prompt: number[] }).prompt);
  return { samples, sent, messages };
}

/** How many times `needle` occurs in `ids`. */
function occurrences(ids: number[], needle: number[]): number {
  let count = 0;
  for (let i = 0; i + needle.length <= ids.length; i++) if (needle.every((id, j) => ids[i + j] === id)) count++;
  return count;
}

const THINKING = ['<think>\nList the files.\n</think>\n\n<tool: bash>\nls\n</tool>', '<think>\nRun the tests.\n</think>\n\n<tool: bash>\npytest -q\n</tool>', 'Done.\n<tool: bash>\ngit diff\n</tool>'];
const RESULTS = ['a.py\ntests/', '1 passed'];

describe('tokens policy on real chat templates: each turn appends only the new messages', () => {
  it.each<[string, TemplateName, TokensPolicyOptions, string]>([
    [
      'Qwen3-like, text protocol (tool results become user turns: re-rendering strips <think> from earlier replies)',
      'qwen3-like',
      { toolProtocol: 'text' },
      `${THINKING[0]}<|im_end|>\n<|im_start|>user\nResult of bash:\na.py\ntests/<|im_end|>\n<|im_start|>assistant\n` +
        `${THINKING[1]}<|im_end|>\n<|im_start|>user\nResult of bash:\n1 passed<|im_end|>\n<|im_start|>assistant\n${THINKING[2]}<|im_end|>`,
    ],
    [
      'Qwen3-like, template tools (<tool_response> turns)',
      'qwen3-like',
      {},
      `${THINKING[0]}<|im_end|>\n<|im_start|>user\n<tool_response>\na.py\ntests/\n</tool_response><|im_end|>\n<|im_start|>assistant\n` +
        `${THINKING[1]}<|im_end|>\n<|im_start|>user\n<tool_response>\n1 passed\n</tool_response><|im_end|>\n<|im_start|>assistant\n${THINKING[2]}<|im_end|>`,
    ],
    [
      'plain ChatML',
      'chatml',
      {},
      `${THINKING[0]}<|im_end|>\n<|im_start|>tool\na.py\ntests/<|im_end|>\n<|im_start|>assistant\n` +
        `${THINKING[1]}<|im_end|>\n<|im_start|>tool\n1 passed<|im_end|>\n<|im_start|>assistant\n${THINKING[2]}<|im_end|>`,
    ],
    [
      'a template that rewrites earlier tool results (only the newest shown in full)',
      'elide-old-tool-results',
      {},
      `${THINKING[0]}<|im_end|>\n<|im_start|>user\n[tool output]\na.py\ntests/<|im_end|>\n<|im_start|>assistant\n` +
        `${THINKING[1]}<|im_end|>\n<|im_start|>user\n[tool output]\n1 passed<|im_end|>\n<|im_start|>assistant\n${THINKING[2]}<|im_end|>`,
    ],
  ])('%s', async (_name, template, options, expectedAfterFirstPrompt) => {
    await withServer(template, async (server) => {
      const { samples, sent, messages } = await play(server, options, THINKING, RESULTS);
      // What the server was sent at each turn is the sample's prompt, and each prompt extends the one before.
      expect(sent).toEqual(samples.map((s) => s.promptTokenIds));
      expect(samples.map((s) => s.unproven)).toEqual([undefined, undefined, undefined]);
      const trajectory = buildTokenTrajectory(samples);
      expect(trajectory.tokens).toEqual([...sent[2]!, ...samples[2]!.completionTokenIds]);

      // The whole sequence, read as text after the first prompt: every reply once, as sampled, and
      // the ChatML separator after each <|im_end|>.
      const first = samples[0]!.promptTokenIds.length;
      expect(decode(trajectory.tokens.slice(first))).toBe(expectedAfterFirstPrompt);
      for (const sample of samples) expect(occurrences(trajectory.tokens, sample.completionTokenIds)).toBe(1);
      trajectory.tokens.forEach((id, i) => {
        if (id === IM_END && i + 1 < trajectory.tokens.length) expect(trajectory.tokens.slice(i + 1, i + 3)).toEqual([NEWLINE, IM_START]);
      });
      // The loss mask is 1 on exactly the sampled ids, the stop tokens the model sampled included.
      const sampled = samples.reduce((n, s) => n + s.completionTokenIds.length, 0);
      expect(trajectory.lossMask.filter((bit) => bit === 1)).toHaveLength(sampled);
      expect(samples.every((s) => s.completionTokenIds.at(-1) === IM_END)).toBe(true);

      // The conversation rendered anew differs where the template rewrites history; the sequence never does.
      const rerendered = (await (await fetch(`${server.baseUrl}/tokenize`, {
        method: 'POST',
        body: JSON.stringify({ messages: messagesOnWire(messages, options), add_generation_prompt: false, tools: options.toolProtocol === 'text' ? undefined : wireTools }),
      })).json()) as { tokens: number[] };
      if (template !== 'chatml' && !(template === 'qwen3-like' && options.toolProtocol !== 'text')) {
        expect(decode(rerendered.tokens)).not.toBe(decode(trajectory.tokens));
      }
    });
  });

  it('treats the end-of-turn token of a completion cut by length as a prompt token', async () => {
    await withServer('chatml', async (server) => {
      const policy = new TokensPolicy({ model: 'tiny', maxTokens: 5, env: {}, baseUrl: server.baseUrl });
      server.replyCompletion({ text: '<tool: bash>\nls\n</tool>' }, { text: 'ok' });
      const first = await policy.complete(request(start));
      expect(first.finishReason).toBe('length');
      const second = await policy.complete(request([...start, first.message, { role: 'user', content: 'Go on.' }]));
      expect(second.sample!.unproven).toBeUndefined();
      const trajectory = buildTokenTrajectory([first.sample!, second.sample!]);
      const cut = first.sample!.promptTokenIds.length + 5;
      expect(trajectory.tokens.slice(cut, cut + 3)).toEqual([IM_END, NEWLINE, IM_START]);
      expect(trajectory.lossMask.slice(cut - 1, cut + 1)).toEqual([1, 0]);
    });
  });
});

describe('tokens policy on real chat templates: what cannot be proven exact is marked', () => {
  it('a template whose rendering of new messages depends on the history: context-dependent', async () => {
    await withServer('numbered-tool-results', async (server) => {
      const { samples } = await play(server, {}, THINKING, RESULTS);
      expect(samples.map((s) => s.unproven?.code)).toEqual([undefined, 'context-dependent', 'context-dependent']);
    });
  });

  it('a template that renders a tool result from the reply before it: prefix-mismatch', async () => {
    await withServer('echo-reply', async (server) => {
      const { samples } = await play(server, {}, THINKING.slice(0, 2), RESULTS.slice(0, 1));
      expect(samples.map((s) => s.unproven?.code)).toEqual([undefined, 'prefix-mismatch']);
    });
  });

  it('a completion that stopped on another token than the template closes with: stop-token-mismatch', async () => {
    await withServer('chatml', async (server) => {
      const policy = new TokensPolicy({ model: 'tiny', maxTokens: 200, env: {}, baseUrl: server.baseUrl });
      server.replyCompletion({ text: '<tool: bash>\nls\n</tool>', stopWith: EOS }, { text: '<tool: bash>\npwd\n</tool>' });
      const first = await policy.complete(request(start));
      const second = await policy.complete(request([...start, first.message, toolResult(first, 'a.py')]));
      expect(second.sample!.unproven).toMatchObject({ code: 'stop-token-mismatch' });
    });
  });

  it('history the policy holds no tokens for: state-lost', async () => {
    await withServer('chatml', async (server) => {
      const policy = new TokensPolicy({ model: 'tiny', maxTokens: 200, env: {}, baseUrl: server.baseUrl });
      server.replyCompletion({ text: '<tool: bash>\nls\n</tool>' }, { text: '<tool: bash>\npwd\n</tool>' });
      const first = await policy.complete(request(start));
      policy.endEpisode('ep-1');
      const second = await policy.complete(request([...start, first.message, toolResult(first, 'a.py')]));
      expect(second.sample!.unproven).toMatchObject({ code: 'state-lost' });
    });
  });
});

const wireTools = tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));

function messagesOnWire(messages: ChatMessage[], options: TokensPolicyOptions): unknown[] {
  return messages.map((message) => {
    if (options.toolProtocol === 'text' && message.role === 'tool') return { role: 'user', content: `Result of ${message.name}:\n${message.content}` };
    if (message.role === 'tool') return { role: 'tool', content: message.content, tool_call_id: message.toolCallId };
    if (message.role === 'assistant') return { role: 'assistant', content: message.content };
    return message;
  });
}
