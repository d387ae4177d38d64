import { compare, parse, type SemVer } from './semver';

type Operator = '<' | '<=' | '>' | '>=' | '=';

/** One bound of a range: `>=1.2.0`. */
export interface Comparator {
  operator: Operator;
  version: SemVer;
}

/** A parsed range: alternatives (`||`), each a set of comparators that must all hold. */
export type Range = Comparator[][];

const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?$/;

function version(major: number, minor: number, patch: number, prerelease: Array<string | number> = []): SemVer {
  return { major, minor, patch, prerelease, build: [] };
}

function isWild(part: string | undefined): boolean {
  return part === undefined || part === 'x' || part === 'X' || part === '*';
}

/** `1.2.x`, `1.x`, `*`: the bounds a partial version stands for. */
function xRange(text: string): Comparator[] {
  const match = PARTIAL.exec(text);
  if (!match) throw new TypeError(`invalid comparator: "${text}"`);
  const [, major, minor, patch] = match;
  if (isWild(major)) return [];
  const M = Number(major);
  if (isWild(minor)) return [{ operator: '>=', version: version(M, 0, 0) }, { operator: '<', version: version(M + 1, 0, 0) }];
  const m = Number(minor);
  if (isWild(patch)) return [{ operator: '>=', version: version(M, m, 0) }, { operator: '<', version: version(M, m + 1, 0) }];
  return [{ operator: '=', version: exact(text) }];
}

function exact(text: string): SemVer {
  const parsed = parse(text);
  if (parsed === null) throw new TypeError(`invalid version in range: "${text}"`);
  return parsed;
}

/** `^1.2.3` allows changes that do not modify the left-most non-zero part. */
function caret(text: string): Comparator[] {
  const v = exact(text);
  let upper: SemVer;
  if (v.major > 0) upper = version(v.major + 1, 0, 0);
  else if (v.minor > 0) upper = version(0, v.minor + 1, 0);
  else upper = version(0, 0, v.patch + 1);
  return [{ operator: '>=', version: v }, { operator: '<', version: upper }];
}

/** `~1.2.3` allows patch-level changes. */
function tilde(text: string): Comparator[] {
  const v = exact(text);
  return [{ operator: '>=', version: v }, { operator: '<', version: version(v.major, v.minor + 1, 0) }];
}

function comparators(token: string): Comparator[] {
  if (token.startsWith('^')) return caret(token.slice(1));
  if (token.startsWith('~')) return tilde(token.slice(1));
  const match = /^(<=|>=|<|>|=)?(.*)$/.exec(token)!;
  const operator = (match[1] ?? '=') as Operator;
  if (operator === '=') return xRange(match[2]!);
  return [{ operator, version: exact(match[2]!) }];
}

/**
 * Parse an npm-style range: `^1.2.0`, `~0.3.1`, `>=1.0.0 <2.0.0`, `1.x || 2.1.x`, `*`.
 * @throws TypeError naming the comparator that is not valid.
 */
export function parseRange(text: string): Range {
  return text.split('||').map((alternative) => {
    // Operators may be separated from their version: `>= 1.2.0` is `>=1.2.0`.
    const tokens = alternative.trim().replace(/(<=|>=|<|>|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    return tokens.flatMap(comparators);
  });
}

function holds(comparator: Comparator, v: SemVer): boolean {
  const order = compare(v, comparator.version);
  switch (comparator.operator) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '=':
      return order === 0;
  }
}

function sameTuple(a: SemVer, b: SemVer): boolean {
  return a.major === b.major && a.minor === b.minor && a.patch === b.patch;
}

function allowsPrerelease(set: Comparator[], v: SemVer): boolean {
  // npm's rule: a pre-release matches only a set naming a pre-release of the same x.y.z.
  return set.some((c) => c.version.prerelease.length > 0 && sameTuple(c.version, v));
}

/** True when the version is in the range. Invalid versions never satisfy. */
export function satisfies(text: string, range: string | Range): boolean {
  const v = parse(text);
  if (v === null) return false;
  const sets = typeof range === 'string' ? parseRange(range) : range;
  return sets.some((set) => set.every((c) => holds(c, v)) && (v.prerelease.length === 0 || allowsPrerelease(set, v)));
}

/** The highest version of the list in the range, or null when none is. */
export function maxSatisfying(versions: readonly string[], range: string): string | null {
  const sets = parseRange(range);
  let best: string | null = null;
  for (const candidate of versions) {
    if (!satisfies(candidate, sets)) continue;
    if (best === null || compare(candidate, best) > 0) best = candidate;
  }
  return best;
}
