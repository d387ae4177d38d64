import type { ToolCall, ToolSpec } from '../policy.js';
import { DEFAULT_TEXT_TOOL_FORMAT, type TextToolFormat } from './text-tool-format.js';
import { hermesParser } from './tool-parsers/hermes-parser.js';
import { TOOL_PARSERS, type ToolParserName } from './tool-parsers/tool-parsers.js';

/**
 * The one tool call of an assistant reply, or why there is not exactly one. `content` is the reply
 * without the call (the model's reasoning) on success, the whole reply on error.
 */
export type TextToolCallParse =
  | { status: 'ok'; call: ToolCall; content: string }
  | { status: 'error'; formatError: string; content: string };

export interface ParseTextToolCallOptions {
  /** Id given to the call (text formats carry none). Default `call_0`. */
  id?: string;
  /** Format named in the reminder appended to errors by the default parser (which reads both). */
  format?: TextToolFormat;
  /** The format the model writes (`--tool-parser`). Default `cwm`, which also reads Hermes blocks. */
  parser?: ToolParserName;
  /** The tools offered: formats with untyped values read their types from these schemas. */
  tools?: readonly ToolSpec[];
}

/** Parses an assistant reply written in a text tool-call format (method §8: exactly one tool call per turn). */
export function parseTextToolCall(text: string, options: ParseTextToolCallOptions = {}): TextToolCallParse {
  const parser = TOOL_PARSERS[options.parser ?? 'cwm'];
  const taughtHermes = parser.name === 'cwm' && (options.format ?? DEFAULT_TEXT_TOOL_FORMAT) === 'hermes';
  const reminder = taughtHermes ? hermesParser.reminder : parser.reminder;
  const parsed = parser.parse(text, options.tools);
  if (parsed.status === 'error') return { status: 'error', formatError: `${capitalize(parsed.reason)}. ${reminder}`, content: text };
  const { calls } = parsed;
  if (calls.length === 0) return { status: 'error', formatError: `No tool call found. ${reminder}`, content: text };
  if (calls.length > 1) {
    const names = calls.map((call) => call.name).join(', ');
    return { status: 'error', formatError: `Found ${calls.length} tool calls (${names}); only one is allowed per reply. ${reminder}`, content: text };
  }
  const [call] = calls as [(typeof calls)[number]];
  return { status: 'ok', call: { id: options.id ?? 'call_0', name: call.name, arguments: call.arguments }, content: parsed.content };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
