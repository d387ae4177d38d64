/** A parsed semantic version (https://semver.org): numeric parts, pre-release and build identifiers. */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  /** Dot-separated pre-release identifiers; numeric ones are numbers. Empty for a release. */
  prerelease: Array<string | number>;
  /** Build metadata: kept when formatting, ignored when comparing. */
  build: string[];
}

export type Comparison = -1 | 0 | 1;
export type ReleaseKind = 'major' | 'minor' | 'patch' | 'prerelease';

const IDENTIFIERS = '[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*';
const VERSION = new RegExp(`^v?(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-(${IDENTIFIERS}))?(?:\\+(${IDENTIFIERS}))?$`);

/** The version `text` spells (a leading `v` and surrounding blanks allowed), or null when it is not one. */
export function parse(text: string): SemVer | null {
  const match = VERSION.exec(text.trim());
  if (!match) return null;
  const [, major, minor, patch, pre, build] = match;
  const prerelease: Array<string | number> = [];
  for (const id of pre === undefined ? [] : pre.split('.')) {
    if (/^\d+$/.test(id)) {
      // Numeric identifiers must not have leading zeros (semver.org, item 9).
      if (id.length > 1 && id.startsWith('0')) return null;
      prerelease.push(Number(id));
    } else {
      prerelease.push(id);
    }
  }
  return { major: Number(major), minor: Number(minor), patch: Number(patch), prerelease, build: build === undefined ? [] : build.split('.') };
}

/** {@link parse}, throwing a TypeError that quotes the text when it is not a version. */
export function parseStrict(text: string): SemVer {
  const version = parse(text);
  if (version === null) throw new TypeError(`invalid version: "${text}"`);
  return version;
}

/** The canonical text of a version: `1.2.3-beta.1+build.5`. */
export function format(version: SemVer): string {
  let text = `${version.major}.${version.minor}.${version.patch}`;
  if (version.prerelease.length > 0) text += `-${version.prerelease.join('.')}`;
  if (version.build.length > 0) text += `+${version.build.join('.')}`;
  return text;
}

function sign(n: number): Comparison {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

function compareIdentifiers(a: string | number, b: string | number): Comparison {
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function comparePrerelease(a: SemVer, b: SemVer): Comparison {
  // A release ranks above any of its pre-releases: 1.0.0-rc.1 < 1.0.0.
  if (a.prerelease.length === 0) return b.prerelease.length === 0 ? 0 : 1;
  if (b.prerelease.length === 0) return -1;
  const shared = Math.min(a.prerelease.length, b.prerelease.length);
  for (let i = 0; i < shared; i++) {
    const order = compareIdentifiers(a.prerelease[i]!, b.prerelease[i]!);
    if (order !== 0) return order;
  }
  return sign(a.prerelease.length - b.prerelease.length);
}

function toVersion(value: SemVer | string): SemVer {
  return typeof value === 'string' ? parseStrict(value) : value;
}

/** Precedence order of two versions (build metadata ignored). */
export function compare(left: SemVer | string, right: SemVer | string): Comparison {
  const a = toVersion(left);
  const b = toVersion(right);
  return sign(a.major - b.major) || sign(a.minor - b.minor) || sign(a.patch - b.patch) || comparePrerelease(a, b);
}

/** Versions sorted from lowest to highest precedence (a new array; the input is left alone). */
export function sortVersions(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => compare(a, b));
}

/** The next version of a kind: `inc('1.2.3', 'minor')` is `1.3.0`; `prerelease` bumps the last numeric identifier. */
export function inc(value: SemVer | string, kind: ReleaseKind): string {
  const v = toVersion(value);
  switch (kind) {
    case 'major':
      // 2.0.0-rc.1 becomes 2.0.0: the pre-release of a major release is released as it.
      return v.minor === 0 && v.patch === 0 && v.prerelease.length > 0 ? `${v.major}.0.0` : `${v.major + 1}.0.0`;
    case 'minor':
      return v.patch === 0 && v.prerelease.length > 0 ? `${v.major}.${v.minor}.0` : `${v.major}.${v.minor + 1}.0`;
    case 'patch':
      return v.prerelease.length > 0 ? `${v.major}.${v.minor}.${v.patch}` : `${v.major}.${v.minor}.${v.patch + 1}`;
    case 'prerelease': {
      if (v.prerelease.length === 0) return `${v.major}.${v.minor}.${v.patch + 1}-0`;
      const ids = [...v.prerelease];
      const last = ids.length - 1;
      const tail = ids[last]!;
      if (typeof tail === 'number') ids[last] = tail + 1;
      else ids.push(0);
      return format({ ...v, prerelease: ids, build: [] });
    }
  }
}
