import { scanJsonObject } from './scan-json-object.js';

export type JsonBodyParse = { status: 'ok'; value: Record<string, unknown>; end: number } | { status: 'error'; reason: string };

/**
 * Reads `{...}` starting at `pos` (after optional whitespace and an optional ``` fence, which models
 * add out of habit) and then expects `closeTag`. A missing close tag is accepted only at the very end
 * of the text: servers that stop on the close tag strip it, and a complete JSON object proves the
 * call was not cut off.
 */
export function parseJsonBody(text: string, pos: number, closeTag: string, label: string): JsonBodyParse {
  let i = skipSpace(text, pos);
  const fenced = text.startsWith('```', i);
  if (fenced) {
    const newline = text.indexOf('\n', i);
    i = skipSpace(text, newline === -1 ? text.length : newline + 1);
  }
  if (text[i] !== '{') return { status: 'error', reason: `the body of ${label} must be a JSON object` };
  const scan = scanJsonObject(text, i);
  if (scan.status === 'error') return { status: 'error', reason: `malformed JSON in ${label}: ${scan.reason}` };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(i, scan.end));
  } catch (error) {
    return { status: 'error', reason: `malformed JSON in ${label}: ${(error as Error).message}` };
  }
  if (!isPlainObject(value)) return { status: 'error', reason: `the body of ${label} must be a JSON object` };
  let j = skipSpace(text, scan.end);
  if (fenced && text.startsWith('```', j)) j = skipSpace(text, j + 3);
  if (text.startsWith(closeTag, j)) return { status: 'ok', value, end: j + closeTag.length };
  if (j === text.length) return { status: 'ok', value, end: j };
  const found = JSON.stringify(text.slice(j, j + 30));
  return { status: 'error', reason: `expected ${closeTag} right after the JSON object of ${label}, found ${found}` };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tool call's arguments as a JSON object: the object itself, or the OpenAI wire form (the
 * object as a JSON string, which some models write in every format) decoded; undefined when it
 * is neither, for the caller's error naming its format.
 */
export function argumentsObject(args: unknown): Record<string, unknown> | undefined {
  let value = args;
  if (typeof args === 'string') {
    try {
      value = JSON.parse(args);
    } catch {
      return undefined;
    }
  }
  return isPlainObject(value) ? value : undefined;
}

function skipSpace(text: string, pos: number): number {
  let i = pos;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}
