/**
 * The titles `it.each(table)(title, fn)` gives its tests, computed the way Jest (jest-each) and
 * Vitest format them, so that a failing test id can be traced back to its row. What cannot be
 * computed exactly (an object rendered by pretty-format or loupe, a long string that gets
 * truncated, a table that is not a literal) is a wildcard: the title is then a pattern.
 */

/** One piece of a title: literal text, or `null` for a part whose text is not known. */
export type TitlePart = string | null;

/** Whose rules format the titles: Jest's and Vitest's differ in quoting, `-0` and `$variable`s. */
export type EachStyle = 'jest' | 'vitest';

/** Printf placeholders as each runner's formatter knows them (`%%` is an escaped `%`). */
const VITEST_PLACEHOLDER = /%[sdjifoOc%]/g;
const NODE_PLACEHOLDER = /%[sdifjoOc]/;
const JEST_PLACEHOLDER = /%[#$Odfijops]/;

class Title {
  readonly parts: TitlePart[] = [];
  text(value: string): void {
    if (value === '') return;
    const last = this.parts.length - 1;
    if (last >= 0 && typeof this.parts[last] === 'string') this.parts[last] += value;
    else this.parts.push(value);
  }
  unknown(): void {
    if (this.parts.at(-1) !== null) this.parts.push(null);
  }
  add(value: string | null): void {
    if (value === null) this.unknown();
    else this.text(value);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPrimitive = (value: unknown): boolean => value === null || (typeof value !== 'object' && typeof value !== 'function');
const signedZero = (value: number): string => (Object.is(value, -0) ? '-0' : String(value));

/** How util.inspect and loupe show a primitive; null when unsure (quotes to escape, truncation). */
function inspected(value: unknown, zero: 'signed' | 'loupe'): string | null {
  if (typeof value === 'string') return /['"\\\n\r\t`]/.test(value) || value.length > 30 ? null : `'${value}'`;
  if (typeof value === 'number') return value === 0 && zero === 'loupe' ? (Object.is(value, -0) ? '-0' : '+0') : signedZero(value);
  return isPrimitive(value) ? String(value) : null;
}

/** One printf placeholder filled with `value`, by Node's util.format (Jest) or @vitest/utils' format. */
function placeholder(spec: string, value: unknown, style: EachStyle): string | null {
  const number = (n: number): string => (style === 'jest' ? signedZero(n) : String(n));
  switch (spec) {
    case 's':
      if (typeof value === 'number') return signedZero(value);
      return isPrimitive(value) ? String(value) : null;
    case 'd':
      return number(Number(value));
    case 'i':
      return number(Number.parseInt(String(value)));
    case 'f':
      return style === 'jest' || !Object.is(value, -0) ? number(Number.parseFloat(String(value))) : '-0';
    case 'j':
      return String(JSON.stringify(value));
    case 'o':
    case 'O':
      return inspected(value, style === 'jest' ? 'signed' : 'loupe');
    case 'c':
      return '';
    default:
      return null;
  }
}

/** Jest's %p: pretty-format, which double-quotes strings. */
function pretty(value: unknown): string | null {
  if (typeof value === 'string') return /["\\\n]/.test(value) ? null : `"${value}"`;
  if (typeof value === 'number') return signedZero(value);
  return isPrimitive(value) ? String(value) : null;
}

/**
 * A property path (`a.b`) of a row object, as Vitest's objectAttr (a missing key: undefined) or
 * jest-each's getPath (a missing key: the object reached so far) walks it; null when it would
 * reach into a primitive's own properties (`$name.length`), which is left unknown.
 */
function pathValue(row: Record<string, unknown>, path: string, missing: 'undefined' | 'stop'): { value: unknown } | null {
  let current: unknown = row;
  for (const key of path.split('.')) {
    if (!isObject(current) && !Array.isArray(current)) return null;
    if (key === '' || !Object.prototype.hasOwnProperty.call(current, key)) return missing === 'stop' ? { value: current } : key === '' ? null : { value: undefined };
    current = (current as Record<string, unknown>)[key];
  }
  return { value: current };
}

function vitestTitle(format: string, row: unknown, index: number): TitlePart[] {
  let template = format;
  if (template.includes('%#') || template.includes('%$')) {
    template = template.replace(/%%/g, '\0').replace(/%#/g, String(index)).replace(/%\$/g, String(index + 1)).replace(/\0/g, '%%');
  }
  const items = Array.isArray(row) ? row : [row];
  const args = items.slice(0, template.split('%').length - 1);
  const title = new Title();
  let used = 0;
  let last = 0;
  for (const match of template.matchAll(VITEST_PLACEHOLDER)) {
    title.text(template.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[0] === '%%') title.text('%');
    else if (used >= args.length) title.text(match[0]);
    else title.add(placeholder(match[0][1]!, args[used++], 'vitest'));
  }
  title.text(template.slice(last));
  // Arguments beyond the placeholders are appended, as util.format does.
  for (const extra of args.slice(used)) title.add(isPrimitive(extra) ? ` ${String(extra)}` : null);
  if (!title.parts.some((part) => part !== null && part.includes('$'))) return title.parts;
  // `$name` / `$a.b` of an object row, shown by loupe; `$0` of an array row (Vitest 3) is left unknown.
  const out = new Title();
  for (const part of title.parts) {
    if (part === null) {
      out.unknown();
      continue;
    }
    let at = 0;
    for (const match of part.matchAll(/\$([$\w.]+)/g)) {
      out.text(part.slice(at, match.index));
      at = match.index + match[0].length;
      const key = match[1]!;
      if (isObject(items[0])) {
        const found = pathValue(items[0], key, 'undefined');
        out.add(found === null ? null : inspected(found.value, 'loupe'));
      }
      else if (/^\d+$/.test(key)) out.unknown();
      else out.text(match[0]);
    }
    out.text(part.slice(at));
  }
  return out.parts;
}

function jestTitle(format: string, table: readonly unknown[], row: unknown, index: number): TitlePart[] {
  const escaped = format.replace(/%%/g, '\0');
  const isTable = table.every(Array.isArray);
  if (!JEST_PLACEHOLDER.test(escaped.replace(/%[#$]/g, '')) && !isTable && table.every((cell) => typeof cell === 'object' && cell !== null)) {
    return jestTemplateTitle(escaped, row as Record<string, unknown>, index);
  }
  const values = isTable ? (row as unknown[]) : [row];
  let rest = escaped.replace('%#', String(index)).replace('%$', String(index + 1));
  const title = new Title();
  for (const value of values) {
    const first = rest.match(JEST_PLACEHOLDER);
    if (!first) break;
    if (first[0] === '%p') {
      title.text(rest.slice(0, first.index));
      title.add(pretty(value));
      rest = rest.slice(first.index! + 2);
      continue;
    }
    const node = rest.match(NODE_PLACEHOLDER);
    if (!node) {
      // util.format appends a value it has no placeholder for; an unusual title: left unknown.
      title.unknown();
      rest = '';
      break;
    }
    title.text(rest.slice(0, node.index));
    title.add(placeholder(node[0][1]!, value, 'jest'));
    rest = rest.slice(node.index! + 2);
  }
  title.text(rest);
  return title.parts.map((part) => (part === null ? null : part.replace(/\0/g, '%')));
}

/** jest-each's `$variable` titles of a table of objects: primitives as String(value), others by pretty-format. */
function jestTemplateTitle(escaped: string, row: Record<string, unknown>, index: number): TitlePart[] {
  const keys = Object.keys(row).map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const title = new Title();
  let rest = escaped.replace('$#', String(index));
  const pattern = keys.length === 0 ? null : new RegExp(`\\$(?:${keys.join('|')})[.\\w]*`);
  for (let match = pattern && rest.match(pattern); match; match = rest.match(pattern!)) {
    title.text(rest.slice(0, match.index));
    const found = pathValue(row, match[0].slice(1), 'stop');
    title.add(found !== null && isPrimitive(found.value) ? String(found.value) : null);
    rest = rest.slice(match.index! + match[0].length);
  }
  title.text(rest);
  return title.parts.map((part) => (part === null ? null : part.replace(/\0/g, '%')));
}

/** The title of row `index` of a literal `table`, by `style`'s rules. */
export function eachTitle(format: string, table: readonly unknown[], index: number, style: EachStyle): TitlePart[] {
  return style === 'jest' ? jestTitle(format, table, table[index], index) : vitestTitle(format, table[index], index);
}

/** The titles of an each whose table is not known: every placeholder and `$name` is a wildcard. */
export function eachPattern(format: string): TitlePart[] {
  const title = new Title();
  let last = 0;
  for (const match of format.matchAll(/%%|%[sdifjoOcp#$]|\$[$\w.#]+/g)) {
    title.text(format.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[0] === '%%') title.text('%');
    else title.unknown();
  }
  title.text(format.slice(last));
  return title.parts;
}
