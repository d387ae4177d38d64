import { parseCwmCall, type CallParse } from '../parse-cwm-call.js';
import { parseHermesCall } from '../parse-hermes-call.js';
import { CWM_OPEN_PATTERN, HERMES_OPEN } from '../text-tool-format.js';
import type { ParsedCall, ToolCallParser } from './tool-call-parser.js';

/**
 * ssr's own text protocol (`<tool: NAME>` … `</tool>`, see text-tool-format.ts); it also reads
 * Hermes `<tool_call>` blocks, which models trained on them write even when taught CWM.
 */
export const cwmParser: ToolCallParser = {
  name: 'cwm',
  reminder:
    'End your reply with exactly one tool call: a line `<tool: NAME>`, then the bash command (for bash) ' +
    'or a JSON object of arguments (for any other tool), then a line `</tool>`.',
  parse(text) {
    const calls: Array<ParsedCall & { start: number; end: number }> = [];
    let pos = 0;
    for (let start = nextOpening(text, pos); start !== -1; start = nextOpening(text, pos)) {
      const parse = parseCallAt(text, start);
      if (parse.status === 'error') {
        return { status: 'error', reason: calls.length === 0 ? parse.reason : `more than one tool call (and the extra one is malformed: ${parse.reason})` };
      }
      calls.push({ name: parse.name, arguments: parse.arguments, start, end: parse.end });
      pos = parse.end;
    }
    let content = '';
    let from = 0;
    for (const call of calls) {
      content += text.slice(from, call.start);
      from = call.end;
    }
    content = `${content}${text.slice(from)}`.trim();
    return { status: 'ok', calls: calls.map(({ name, arguments: args }) => ({ name, arguments: args })), content };
  },
};

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
