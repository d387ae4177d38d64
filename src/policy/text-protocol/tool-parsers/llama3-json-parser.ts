import { argumentsObject, isPlainObject } from '../parse-json-body.js';
import { scanJsonObject } from '../scan-json-object.js';
import type { CallsParse, ParsedCall, ToolCallParser } from './tool-call-parser.js';

const PYTHON_TAG = '<|python_tag|>';

/**
 * Llama 3.1 / 3.2 / 3.3 JSON calls: the reply is `{"name": …, "parameters": {…}}` (several joined
 * by `;`), optionally after `<|python_tag|>`. Without the tag only a reply that *is* JSON counts
 * as a call, so braces in prose are never mistaken for one.
 */
export const llama3JsonParser: ToolCallParser = {
  name: 'llama3_json',
  reminder: 'Reply with exactly one tool call and nothing else: {"name": "NAME", "parameters": {...}}',
  parse(text) {
    const cleaned = text.replace(/<\|(?:eom_id|eot_id)\|>\s*$/, '');
    const tag = cleaned.indexOf(PYTHON_TAG);
    const content = tag === -1 ? '' : cleaned.slice(0, tag).trim();
    const body = tag === -1 ? cleaned.trim() : cleaned.slice(tag + PYTHON_TAG.length).trim();
    if (tag === -1 && !body.startsWith('{')) return { status: 'ok', calls: [], content: text.trim() };
    return readCalls(body, content);
  },
};

function readCalls(body: string, content: string): CallsParse {
  const calls: ParsedCall[] = [];
  let i = 0;
  while (i < body.length) {
    if (body[i] !== '{') return { status: 'error', reason: `expected a JSON object {"name": …, "parameters": …}, found ${JSON.stringify(body.slice(i, i + 30))}` };
    const scan = scanJsonObject(body, i);
    if (scan.status === 'error') return { status: 'error', reason: `malformed JSON tool call: ${scan.reason}` };
    let value: unknown;
    try {
      value = JSON.parse(body.slice(i, scan.end));
    } catch (error) {
      return { status: 'error', reason: `malformed JSON tool call: ${(error as Error).message}` };
    }
    const call = toCall(value);
    if (typeof call === 'string') return { status: 'error', reason: call };
    calls.push(call);
    i = scan.end;
    while (i < body.length && /[\s;]/.test(body[i]!)) i++;
  }
  return { status: 'ok', calls, content };
}

function toCall(value: unknown): ParsedCall | string {
  if (!isPlainObject(value) || typeof value.name !== 'string' || value.name.trim() === '') return 'a tool call needs a "name" string';
  // Llama's template says "parameters"; some fine-tunes write OpenAI's "arguments".
  const decoded = argumentsObject(value.parameters ?? value.arguments ?? {});
  if (!decoded) return `"parameters" of the call to "${value.name}" must be a JSON object`;
  return { name: value.name.trim(), arguments: decoded };
}
