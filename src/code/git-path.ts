/**
 * Path spelling in diff headers. git C-quotes a name with control characters, `"`, `\` or
 * non-ASCII bytes (`"a/caf\303\251.py"`), and prefixes names with `a/` and `b/`; both are undone
 * here so a parsed path is the repo-relative path `git apply -p1` would touch.
 */

export const DEV_NULL = '/dev/null';

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Parse a C-quoted name starting at `text[start] === '"'`. Returns the name and the index after the
 * closing quote, or null when the quoting is malformed.
 */
export function unquoteAt(text: string, start: number): { name: string; end: number } | null {
  const bytes: number[] = [];
  let i = start + 1;
  while (i < text.length) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    if (ch === '"') return { name: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) return null;
    const octal = /^[0-3][0-7]{2}/.exec(text.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 4;
    } else if (next in ESCAPES) {
      bytes.push(ESCAPES[next]!);
      i += 2;
    } else return null;
  }
  return null;
}

/** Quote a path the way git does when it must (control characters, `"`, `\`, non-ASCII); otherwise return it as is. */
export function quotePath(path: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what git quotes
  if (!/[\x00-\x1f"\\\x7f-\uffff]/.test(path)) return path;
  let out = '"';
  for (const byte of Buffer.from(path, 'utf8')) {
    const named = Object.entries(ESCAPES).find(([, code]) => code === byte);
    if (named) out += `\\${named[0]}`;
    else if (byte < 0x20 || byte >= 0x7f) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return `${out}"`;
}

/** Strip the first path component (`a/x.py` → `x.py`), as `git apply -p1` does; a bare name is kept. */
export function stripPrefix(name: string): string {
  const slash = name.indexOf('/');
  return name === DEV_NULL || slash < 0 ? name : name.slice(slash + 1);
}

/**
 * Split the names of a `diff --git <a> <b>` line (text after `diff --git `) into prefix-stripped
 * paths. Unquoted names may contain spaces, so the split is the one whose two halves name the same
 * path, as git itself decides; null when no split is unambiguous (then the name must come from
 * `---`/`+++` or `rename` lines).
 */
export function splitGitHeaderNames(rest: string): { a: string; b: string } | null {
  if (rest.startsWith('"')) {
    const first = unquoteAt(rest, 0);
    if (!first || rest[first.end] !== ' ') return null;
    const tail = rest.slice(first.end + 1);
    const second = tail.startsWith('"') ? unquoteAt(tail, 0)?.name : tail;
    return second === undefined ? null : { a: stripPrefix(first.name), b: stripPrefix(second) };
  }
  const quotedSecond = rest.indexOf(' "');
  if (quotedSecond > 0 && rest.endsWith('"')) {
    const second = unquoteAt(rest, quotedSecond + 1);
    if (second && second.end === rest.length) {
      return { a: stripPrefix(rest.slice(0, quotedSecond)), b: stripPrefix(second.name) };
    }
  }
  for (let k = rest.indexOf(' '); k > 0; k = rest.indexOf(' ', k + 1)) {
    const a = stripPrefix(rest.slice(0, k));
    const b = stripPrefix(rest.slice(k + 1));
    if (a === b) return { a, b };
  }
  return null;
}

/**
 * Parse the text after `--- ` or `+++ `: a (possibly quoted) name, then an optional tab and a
 * timestamp (plain `diff -u`). The name is returned raw (prefix not stripped).
 */
export function parseFileLine(text: string): { name: string; timestamp: string } | null {
  const clean = text.replace(/\r$/, '');
  if (clean.startsWith('"')) {
    const quoted = unquoteAt(clean, 0);
    if (!quoted) return null;
    return { name: quoted.name, timestamp: clean.slice(quoted.end).replace(/^\t/, '').trim() };
  }
  const tab = clean.indexOf('\t');
  const name = (tab < 0 ? clean : clean.slice(0, tab)).trimEnd();
  return name === '' ? null : { name, timestamp: tab < 0 ? '' : clean.slice(tab + 1).trim() };
}
