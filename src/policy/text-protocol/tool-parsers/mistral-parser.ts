import { argumentsObject, isPlainObject } from '../parse-json-body.js';
import { scanJsonObject } from '../scan-json-object.js';
import type { CallsParse, ParsedCall, ToolCallParser } from './tool-call-parser.js';

const MARKER = '[TOOL_CALLS]';

/**
 * Mistral calls after `[TOOL_CALLS]`, in either generation of its tokenizer:
 * `[TOOL_CALLS][{"name": …, "arguments": {…}}, …]` (v3) or `[TOOL_CALLS]NAME[ARGS]{…}` (v11+,
 * one marker per call, optionally `NAME[CALL_ID]id[ARGS]{…}`). Text before the first marker is content.
 */
export const mistralParser: ToolCallParser = {
  name: 'mistral',
  reminder: 'End your reply with exactly one tool call: [TOOL_CALLS][{"name": "NAME", "arguments": {...}}]',
  parse(text) {
    const cleaned = text.replace(/<\/s>\s*$/, '');
    const [content, ...pieces] = cleaned.split(MARKER);
    const calls: ParsedCall[] = [];
    for (const piece of pieces) {
      const read = piece.trimStart().startsWith('[') ? readArray(piece.trim()) : readNamed(piece.trim());
      if (read.status === 'error') return read;
      calls.push(...read.calls);
    }
    return { status: 'ok', calls, content: content!.trim() };
  },
};

function readArray(body: string): CallsParse {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { status: 'error', reason: `malformed JSON after ${MARKER}: ${(error as Error).message}` };
  }
  if (!Array.isArray(value)) return { status: 'error', reason: `${MARKER} must be followed by a JSON array of calls` };
  const calls: ParsedCall[] = [];
  for (const entry of value) {
    if (!isPlainObject(entry) || typeof entry.name !== 'string' || entry.name.trim() === '') return { status: 'error', reason: `every call after ${MARKER} needs a "name" string` };
    const args = argumentsObject(entry.arguments ?? {});
    if (!args) return { status: 'error', reason: `"arguments" of the call to "${entry.name}" must be a JSON object` };
    calls.push({ name: entry.name.trim(), arguments: args });
  }
  return { status: 'ok', calls, content: '' };
}

function readNamed(body: string): CallsParse {
  const head = /^([A-Za-z_][\w.-]*)(?:\[CALL_ID\][\w-]*)?\[ARGS\]/.exec(body);
  if (!head) return { status: 'error', reason: `expected NAME[ARGS]{…} or a JSON array after ${MARKER}, found ${JSON.stringify(body.slice(0, 30))}` };
  const start = head[0].length;
  if (body[start] !== '{') return { status: 'error', reason: `the arguments of ${head[1]} after [ARGS] must be a JSON object` };
  const scan = scanJsonObject(body, start);
  if (scan.status === 'error') return { status: 'error', reason: `malformed JSON arguments of ${head[1]}: ${scan.reason}` };
  const args = argumentsObject(body.slice(start, scan.end));
  if (!args) return { status: 'error', reason: `malformed JSON arguments of ${head[1]}` };
  if (body.slice(scan.end).trim() !== '') return { status: 'error', reason: `unexpected text after the arguments of ${head[1]}: ${JSON.stringify(body.slice(scan.end).trim().slice(0, 30))}` };
  return { status: 'ok', calls: [{ name: head[1]!, arguments: args }], content: '' };
}
