/** Where a JSON object that starts at `start` ends, or why it does not. */
export type JsonObjectScan = { status: 'ok'; end: number } | { status: 'error'; reason: string };

/**
 * Finds the end of the JSON object starting at `text[start] === '{'` by matching brackets outside
 * strings. Strings are skipped with their escapes, so `}` or `</tool>` inside a string never end the
 * object; JSON.parse then judges the slice. This is what lets code containing tag-like text travel
 * inside JSON arguments.
 */
export function scanJsonObject(text: string, start: number): JsonObjectScan {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return { status: 'ok', end: i + 1 };
      if (depth < 0) return { status: 'error', reason: `unbalanced "${ch}"` };
    }
  }
  return { status: 'error', reason: inString ? 'unterminated string' : 'missing closing "}"' };
}
