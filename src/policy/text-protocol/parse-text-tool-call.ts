import type { ToolCall } from '../policy.js';
import { parseCwmCall, type CallParse } from './parse-cwm-call.js';
import { parseHermesCall } from './parse-hermes-call.js';
import { CWM_OPEN_PATTERN, DEFAULT_TEXT_TOOL_FORMAT, HERMES_OPEN, type TextToolFormat } from './text-tool-format.js';

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
  /** Format named in the reminder appended to errors. Both formats are always parsed. */
  format?: TextToolFormat;
}

const REMINDER: Record<TextToolFormat, string> = {
  cwm:
    'End your reply with exactly one tool call: a line `<tool: NAME>`, then the bash command (for bash) ' +
    'or a JSON object of arguments (for any other tool), then a line `</tool>`.',
  hermes: 'End your reply with exactly one tool call: <tool_call>{"name": "NAME", "arguments": {...}}</tool_call>',
};

/** Parses an assistant reply written in either text format (SPEC §8: exactly one tool call per turn). */
export function parseTextToolCall(text: string, options: ParseTextToolCallOptions = {}): TextToolCallParse {
  const reminder = REMINDER[options.format ?? DEFAULT_TEXT_TOOL_FORMAT];
  const calls: Array<{ start: number; parse: Extract<CallParse, { status: 'ok' }> }> = [];
  let pos = 0;
  for (let start = nextOpening(text, pos); start !== -1; start = nextOpening(text, pos)) {
    const parse = parseCallAt(text, start);
    if (parse.status === 'error') {
      const problem = calls.length === 0 ? parse.reason : `more than one tool call (and the extra one is malformed: ${parse.reason})`;
      return { status: 'error', formatError: `${capitalize(problem)}. ${reminder}`, content: text };
    }
    calls.push({ start, parse });
    pos = parse.end;
  }
  if (calls.length === 0) return { status: 'error', formatError: `No tool call found. ${reminder}`, content: text };
  if (calls.length > 1) {
    const names = calls.map((call) => call.parse.name).join(', ');
    return { status: 'error', formatError: `Found ${calls.length} tool calls (${names}); only one is allowed per reply. ${reminder}`, content: text };
  }
  const [{ start, parse }] = calls as [(typeof calls)[number]];
  const content = `${text.slice(0, start)}${text.slice(parse.end)}`.trim();
  return { status: 'ok', call: { id: options.id ?? 'call_0', name: parse.name, arguments: parse.arguments }, content };
}

function nextOpening(text: string, from: number): number {
  const cwm = text.indexOf('<tool:', from);
  const hermes = text.indexOf(HERMES_OPEN, from);
  if (cwm === -1) return hermes;
  return hermes === -1 ? cwm : Math.min(cwm, hermes);
}

function parseCallAt(text: string, start: number): CallParse {
  if (text.startsWith(HERMES_OPEN, start)) return parseHermesCall(text, start + HERMES_OPEN.length);
  const pattern = new RegExp(CWM_OPEN_PATTERN);
  pattern.lastIndex = start;
  const open = pattern.exec(text);
  if (!open) return { status: 'error', reason: 'malformed tag "<tool:": write `<tool: NAME>` on its own line' };
  const name = open[1]!;
  if (!/^[A-Za-z_][\w.-]*$/.test(name)) {
    return { status: 'error', reason: name === '' ? 'missing tool name in `<tool: >`' : `invalid tool name ${JSON.stringify(name)} in <tool: ...>` };
  }
  return parseCwmCall(text, name, start + open[0].length);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
