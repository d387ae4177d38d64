import { EngineError } from '../util/engine-error.js';
import type { FinishReason, PolicyTurn, ToolCall } from './policy.js';
import { isPlainObject } from './text-protocol/parse-json-body.js';
import { parseTextToolCall } from './text-protocol/parse-text-tool-call.js';
import { renderToolCallAsText } from './text-protocol/render-tool-call-text.js';
import type { TextToolFormat } from './text-protocol/text-tool-format.js';
import type { ToolParserName } from './text-protocol/tool-parsers/tool-parsers.js';

interface WireToolCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

export interface ReadChatOptions {
  /** Id for a call read from text, or a native call the server sent without one. */
  callId: string;
  format: TextToolFormat;
  /** How a reply without native calls is read (`--tool-parser`). Default `cwm` (which also reads Hermes blocks). */
  parser?: ToolParserName;
}

/**
 * Turns a `/v1/chat/completions` response into a PolicyTurn. Native `tool_calls` win; without them
 * the text is read with the text protocol (servers without a tool parser return the call as text).
 * Anything but exactly one decodable call is a `formatError` the model sees, never an exception.
 */
export function readChatCompletion(response: unknown, url: string, options: ReadChatOptions): PolicyTurn {
  const choice = (response as { choices?: Array<{ message?: unknown; finish_reason?: unknown }> })?.choices?.[0];
  const message = choice?.message as { content?: unknown; tool_calls?: unknown } | undefined;
  if (!isPlainObject(message)) throw new EngineError('policy-unavailable', `malformed response from ${url}: no choices[0].message`);
  const content = typeof message.content === 'string' ? message.content : '';
  const usage = readUsage(response);
  const truncated = choice?.finish_reason === 'length';
  const wireCalls = Array.isArray(message.tool_calls) ? (message.tool_calls as WireToolCall[]) : [];

  if (wireCalls.length === 0) {
    const parsed = parseTextToolCall(content, { id: options.callId, format: options.format, parser: options.parser });
    if (parsed.status === 'error') return failed(content, parsed.formatError, usage, truncated);
    const turnMessage = { role: 'assistant' as const, content: parsed.content, toolCalls: [parsed.call] };
    return { message: turnMessage, toolCalls: [parsed.call], usage, finishReason: 'tool_calls' };
  }

  const decoded = wireCalls.map((call) => decodeCall(call, options.callId));
  // Keep what the model wrote, as text, so the next prompt shows it its own mistake.
  const shown = [content.trim(), ...decoded.map((call) => call.shown)].filter((part) => part !== '').join('\n\n');
  const broken = decoded.find((call) => call.error !== undefined);
  if (broken) return failed(shown, broken.error!, usage, truncated);
  if (decoded.length > 1) {
    const names = decoded.map((call) => call.call!.name).join(', ');
    return failed(shown, `You made ${decoded.length} tool calls (${names}); make exactly one tool call per turn.`, usage, truncated);
  }
  const call = decoded[0]!.call!;
  return { message: { role: 'assistant', content, toolCalls: [call] }, toolCalls: [call], usage, finishReason: 'tool_calls' };
}

function decodeCall(wire: WireToolCall, fallbackId: string): { call?: ToolCall; error?: string; shown: string } {
  const name = typeof wire.function?.name === 'string' ? wire.function.name : '';
  const raw = wire.function?.arguments;
  const id = typeof wire.id === 'string' && wire.id !== '' ? wire.id : fallbackId;
  if (name === '') return { error: 'Your tool call has no tool name.', shown: JSON.stringify(wire) };
  let args: unknown = raw;
  if (typeof raw === 'string') {
    try {
      args = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (error) {
      const shown = `<tool_call>\n{"name": ${JSON.stringify(name)}, "arguments": ${raw}}\n</tool_call>`;
      return { error: `The arguments of your ${name} call are not valid JSON (${(error as Error).message}); send a JSON object.`, shown };
    }
  }
  if (!isPlainObject(args)) {
    return { error: `The arguments of your ${name} call must be a JSON object.`, shown: renderToolCallAsText({ name, arguments: args }, 'hermes') };
  }
  const call = { id, name, arguments: args };
  return { call, shown: renderToolCallAsText(call, 'hermes') };
}

function failed(content: string, formatError: string, usage: PolicyTurn['usage'], truncated: boolean): PolicyTurn {
  const finishReason: FinishReason = truncated ? 'length' : 'stop';
  return { message: { role: 'assistant', content }, toolCalls: [], usage, finishReason, formatError };
}

function readUsage(response: unknown): PolicyTurn['usage'] {
  const usage = (response as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } })?.usage;
  return {
    promptTokens: typeof usage?.prompt_tokens === 'number' ? usage.prompt_tokens : 0,
    completionTokens: typeof usage?.completion_tokens === 'number' ? usage.completion_tokens : 0,
  };
}
