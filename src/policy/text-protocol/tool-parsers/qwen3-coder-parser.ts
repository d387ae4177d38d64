import type { ToolSpec } from '../../policy.js';
import type { CallsParse, ParsedCall, ToolCallParser } from './tool-call-parser.js';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';
const FUNCTION_CLOSE = '</function>';

/**
 * Qwen3-Coder's XML calls:
 * `<tool_call>\n<function=NAME>\n<parameter=ARG>\nVALUE\n</parameter>\n</function>\n</tool_call>`.
 * Values are raw text (code travels unescaped); a value is typed by the tool's JSON schema
 * (integer, number, boolean, object, array), as vLLM's qwen3_coder parser does.
 */
export const qwen3CoderParser: ToolCallParser = {
  name: 'qwen3_coder',
  reminder: 'End your reply with exactly one tool call: <tool_call>\n<function=NAME>\n<parameter=ARGUMENT>\nVALUE\n</parameter>\n</function>\n</tool_call>',
  parse(text, tools) {
    const calls: ParsedCall[] = [];
    const kept: string[] = [];
    let from = 0;
    for (let start = text.indexOf(OPEN); start !== -1; start = text.indexOf(OPEN, from)) {
      kept.push(text.slice(from, start));
      // Code in a value may hold "</tool_call>": the call ends at the close tag after </function>.
      // A stop sequence may strip the close tag: then the call runs to the end of the reply.
      const functionEnd = text.indexOf(FUNCTION_CLOSE, start);
      const close = text.indexOf(CLOSE, functionEnd === -1 ? start : functionEnd);
      const end = close === -1 ? text.length : close;
      const call = parseFunction(text.slice(start + OPEN.length, end), tools);
      if (call.status === 'error') return call;
      calls.push(call.call);
      from = close === -1 ? text.length : close + CLOSE.length;
    }
    kept.push(text.slice(from));
    return { status: 'ok', calls, content: kept.join('').trim() };
  },
};

function parseFunction(body: string, tools: readonly ToolSpec[] | undefined): { status: 'ok'; call: ParsedCall } | Extract<CallsParse, { status: 'error' }> {
  const open = /^\s*<function=([^>\n]*)>/.exec(body);
  if (!open) return { status: 'error', reason: `${OPEN} must start with <function=NAME>` };
  const name = open[1]!.trim();
  if (!/^[A-Za-z_][\w.-]*$/.test(name)) return { status: 'error', reason: `invalid tool name ${JSON.stringify(name)} in <function=...>` };
  const functionEnd = body.lastIndexOf(FUNCTION_CLOSE);
  if (functionEnd === -1 && body.trim() !== '' && !/<\/parameter>\s*$/.test(body)) {
    return { status: 'error', reason: `unterminated <function=${name}>: end it with </function>` };
  }
  const inner = body.slice(open[0].length, functionEnd === -1 ? body.length : functionEnd);
  const after = functionEnd === -1 ? '' : body.slice(functionEnd + FUNCTION_CLOSE.length);
  if (after.trim() !== '') return { status: 'error', reason: `unexpected text after </function> in ${OPEN}: ${JSON.stringify(after.trim().slice(0, 30))}` };
  const schema = tools?.find((tool) => tool.name === name)?.parameters.properties as Record<string, { type?: unknown }> | undefined;
  const args: Record<string, unknown> = {};
  const parameter = /<parameter=([^>\n]*)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g;
  let consumed = 0;
  for (let match = parameter.exec(inner); match !== null; match = parameter.exec(inner)) {
    if (inner.slice(consumed, match.index).trim() !== '') break;
    const key = match[1]!.trim();
    if (key === '') return { status: 'error', reason: `missing parameter name in <parameter=> of ${name}` };
    args[key] = typed(match[2]!.replace(/^\r?\n/, '').replace(/\r?\n$/, ''), schema?.[key]?.type);
    consumed = parameter.lastIndex;
  }
  const stray = inner.slice(consumed).trim();
  if (stray !== '') return { status: 'error', reason: `unexpected text in <function=${name}>: ${JSON.stringify(stray.slice(0, 30))} (write each argument as <parameter=NAME>VALUE</parameter>)` };
  return { status: 'ok', call: { name, arguments: args } };
}

/** A raw value typed by its schema; a value that does not fit stays a string for the tool's validator to reject. */
function typed(value: string, type: unknown): unknown {
  const trimmed = value.trim();
  switch (type) {
    case 'integer':
    case 'number':
      return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : value;
    case 'boolean':
      return trimmed === 'true' ? true : trimmed === 'false' ? false : value;
    case 'object':
    case 'array':
      try {
        return JSON.parse(trimmed);
      } catch {
        return value;
      }
    default:
      return value;
  }
}
