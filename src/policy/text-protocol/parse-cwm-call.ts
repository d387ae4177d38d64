import { isPlainObject, parseJsonBody } from './parse-json-body.js';
import { CWM_CLOSE, RAW_BODY_ARGUMENT } from './text-tool-format.js';

export type CallParse =
  | { status: 'ok'; name: string; arguments: Record<string, unknown>; end: number }
  | { status: 'error'; reason: string };

/** Parses the body of `<tool: NAME>` that starts at `bodyStart` (see text-tool-format.ts for the format). */
export function parseCwmCall(text: string, name: string, bodyStart: number): CallParse {
  const label = `<tool: ${name}>`;
  const rawArgument = RAW_BODY_ARGUMENT[name];
  if (rawArgument === undefined) {
    const body = parseJsonBody(text, bodyStart, CWM_CLOSE, label);
    if (body.status === 'error') {
      // The likeliest cause of a non-JSON body: the model wrote the arguments like a bash command.
      const hint = body.reason.endsWith('must be a JSON object') ? ` of arguments (only ${Object.keys(RAW_BODY_ARGUMENT).join(', ')} takes a raw command)` : '';
      return { status: 'error', reason: `${body.reason}${hint}` };
    }
    return { status: 'ok', name, arguments: body.value, end: body.end };
  }
  const close = findRawClose(text, bodyStart);
  if (close === -1) {
    return { status: 'error', reason: `unterminated ${label} call: end the command with a line containing only ${CWM_CLOSE}` };
  }
  const body = unfence(text.slice(bodyStart, close).replace(/^[ \t]*\r?\n/, '').replace(/\r?\n[ \t]*$/, ''));
  return { status: 'ok', name, arguments: rawBodyArguments(body, rawArgument), end: close + CWM_CLOSE.length };
}

/**
 * A raw body normally starts on the line after the tag and ends at the first line that starts with
 * `</tool>`, so `echo "</tool>"` inside a command line is harmless. The one-line form
 * `<tool: bash>ls</tool>` ends at the first `</tool>`.
 */
function findRawClose(text: string, bodyStart: number): number {
  const sameLine = !/^[ \t]*\r?\n/.test(text.slice(bodyStart, bodyStart + 200));
  if (sameLine) {
    const lineEnd = text.indexOf('\n', bodyStart);
    const close = text.indexOf(CWM_CLOSE, bodyStart);
    if (close !== -1 && (lineEnd === -1 || close < lineEnd)) return close;
  }
  const match = /\n[ \t]*<\/tool>/g;
  match.lastIndex = bodyStart;
  const found = match.exec(text);
  return found ? found.index + found[0].length - CWM_CLOSE.length : -1;
}

function unfence(body: string): string {
  const fenced = /^```[\w-]*\r?\n([\s\S]*?)\r?\n```$/.exec(body);
  return fenced ? fenced[1]! : body;
}

/** A raw body that is a JSON object holding the raw argument is taken as the full arguments object. */
function rawBodyArguments(body: string, argument: string): Record<string, unknown> {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (isPlainObject(value) && typeof value[argument] === 'string') return value;
    } catch {
      // Not JSON: a shell group such as `{ cd /repo; ls; }` is a command.
    }
  }
  return { [argument]: body };
}
