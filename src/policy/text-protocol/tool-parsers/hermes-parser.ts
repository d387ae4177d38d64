import { parseHermesCall } from '../parse-hermes-call.js';
import { HERMES_OPEN } from '../text-tool-format.js';
import type { ParsedCall, ToolCallParser } from './tool-call-parser.js';

/** Hermes / Qwen2.5 / Qwen3: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, one block per call. */
export const hermesParser: ToolCallParser = {
  name: 'hermes',
  reminder: 'End your reply with exactly one tool call: <tool_call>{"name": "NAME", "arguments": {...}}</tool_call>',
  parse(text) {
    const calls: ParsedCall[] = [];
    const kept: string[] = [];
    let from = 0;
    for (let start = text.indexOf(HERMES_OPEN); start !== -1; start = text.indexOf(HERMES_OPEN, from)) {
      const parse = parseHermesCall(text, start + HERMES_OPEN.length);
      if (parse.status === 'error') return parse;
      kept.push(text.slice(from, start));
      calls.push({ name: parse.name, arguments: parse.arguments });
      from = parse.end;
    }
    kept.push(text.slice(from));
    return { status: 'ok', calls, content: kept.join('').trim() };
  },
};
