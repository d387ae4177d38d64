import type { CallParse } from './parse-cwm-call.js';
import { argumentsObject, parseJsonBody } from './parse-json-body.js';
import { HERMES_CLOSE, HERMES_OPEN } from './text-tool-format.js';

const ALLOWED_FIELDS = ['name', 'arguments'];

/** Parses `{"name": ..., "arguments": {...}}</tool_call>` starting at `bodyStart`. */
export function parseHermesCall(text: string, bodyStart: number): CallParse {
  const body = parseJsonBody(text, bodyStart, HERMES_CLOSE, HERMES_OPEN);
  if (body.status === 'error') return body;
  const { name, arguments: args } = body.value;
  const unknown = Object.keys(body.value).filter((key) => !ALLOWED_FIELDS.includes(key));
  if (unknown.length > 0) {
    const list = unknown.map((key) => `"${key}"`).join(', ');
    return { status: 'error', reason: `unexpected field${unknown.length > 1 ? 's' : ''} ${list} in ${HERMES_OPEN} (allowed: "name", "arguments")` };
  }
  if (typeof name !== 'string' || name.trim() === '') {
    return { status: 'error', reason: `${HERMES_OPEN} needs a "name" string naming the tool` };
  }
  const decoded = argumentsObject(args);
  if (!decoded) {
    return { status: 'error', reason: `"arguments" of ${HERMES_OPEN} for "${name}" must be a JSON object` };
  }
  return { status: 'ok', name: name.trim(), arguments: decoded, end: body.end };
}
