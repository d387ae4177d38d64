/** A parsed query: a repeated key (or one written `key[]`) holds an array of its values. */
export type Query = Record<string, string | string[]>;

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>;

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A lone "%" or a broken escape is kept as written rather than failing the whole query.
    return spaced;
  }
}

/**
 * Parse `?a=1&b=2&b=3&flag&list[]=x`: a leading `?` is skipped, `+` is a space, a key without
 * `=` has the value "", `key[]` always gives an array. Empty pairs (`a=1&&b=2`) are skipped.
 */
export function parseQuery(text: string): Query {
  const query: Query = Object.create(null);
  const body = text.startsWith('?') ? text.slice(1) : text;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    let key = decode(rawKey);
    const forceArray = key.endsWith('[]');
    if (forceArray) key = key.slice(0, -2);
    const existing = query[key];
    if (existing === undefined) query[key] = forceArray ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else query[key] = [existing, value];
  }
  return query;
}

export interface StringifyOptions {
  /** Sort keys alphabetically (default true, so equal queries give equal strings). */
  sort?: boolean;
  /** Write arrays as `key[]=a&key[]=b` instead of `key=a&key=b`. */
  brackets?: boolean;
}

function encode(value: string | number | boolean): string {
  return encodeURIComponent(String(value));
}

/**
 * The query string of an object (without `?`): undefined values are left out, null gives the
 * bare key, arrays repeat the key (empty arrays are left out).
 */
export function stringifyQuery(object: Readonly<Record<string, QueryValue>>, options: StringifyOptions = {}): string {
  const keys = Object.keys(object);
  if (options.sort ?? true) keys.sort();
  const pairs: string[] = [];
  for (const key of keys) {
    const value = object[key];
    if (value === undefined) continue;
    if (value === null) {
      pairs.push(encode(key));
    } else if (Array.isArray(value)) {
      const name = options.brackets ? `${encode(key)}[]` : encode(key);
      for (const item of value as ReadonlyArray<string | number | boolean>) pairs.push(`${name}=${encode(item)}`);
    } else {
      pairs.push(`${encode(key)}=${encode(value as string | number | boolean)}`);
    }
  }
  return pairs.join('&');
}

/** Merge extra parameters into a URL's query (replacing keys it has), keeping its #fragment. */
export function withQuery(url: string, extra: Readonly<Record<string, QueryValue>>): string {
  const hashAt = url.indexOf('#');
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = base.indexOf('?');
  const path = queryAt === -1 ? base : base.slice(0, queryAt);
  const merged: Record<string, QueryValue> = { ...(queryAt === -1 ? {} : parseQuery(base.slice(queryAt))), ...extra };
  const query = stringifyQuery(merged);
  return `${path}${query === '' ? '' : `?${query}`}${hash}`;
}
