import { describe, expect, it } from 'vitest';
import { compare, format, inc, parse, parseStrict, sortVersions } from '../src/semver';

describe('parse', () => {
  it('reads the numeric parts, pre-release and build', () => {
    expect(parse('1.2.3-beta.4+exp.sha')).toEqual({ major: 1, minor: 2, patch: 3, prerelease: ['beta', 4], build: ['exp', 'sha'] });
  });

  it('accepts a leading v and surrounding blanks', () => {
    expect(parse('  v10.0.1 ')).toMatchObject({ major: 10, minor: 0, patch: 1, prerelease: [] });
  });

  it.each(['1.2', '1.2.3.4', '01.2.3', '1.2.3-', '1.2.3-01', 'one.two.three', ''])('refuses %j', (text) => {
    expect(parse(text)).toBeNull();
  });

  it('parseStrict quotes the text it refuses', () => {
    expect(() => parseStrict('1.x')).toThrow('invalid version: "1.x"');
  });
});

describe('format', () => {
  it('round-trips a full version', () => {
    expect(format(parseStrict('v2.0.0-rc.1+build.7'))).toBe('2.0.0-rc.1+build.7');
  });
});

describe('compare', () => {
  it.each([
    ['1.0.0', '2.0.0', -1],
    ['2.1.0', '2.0.9', 1],
    ['1.2.3', '1.2.3', 0],
    ['1.0.0-alpha', '1.0.0', -1],
    ['1.0.0-alpha', '1.0.0-alpha.1', -1],
    ['1.0.0-alpha.1', '1.0.0-alpha.beta', -1],
    ['1.0.0-beta', '1.0.0-alpha', 1],
    ['1.0.0-beta.2', '1.0.0-beta.11', -1],
    ['1.0.0-rc.10', '1.0.0-rc.9', 1],
    ['1.0.0+build.1', '1.0.0+build.2', 0],
  ] as const)('compare(%s, %s) is %i', (a, b, expected) => {
    expect(compare(a, b)).toBe(expected);
  });

  it('sorts pre-releases the way semver.org lists them', () => {
    const ordered = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    expect(sortVersions([...ordered].reverse())).toEqual(ordered);
  });

  it('sortVersions leaves its input alone', () => {
    const input = ['2.0.0', '1.0.0'];
    sortVersions(input);
    expect(input).toEqual(['2.0.0', '1.0.0']);
  });
});

describe('inc', () => {
  it.each([
    ['1.2.3', 'major', '2.0.0'],
    ['1.2.3', 'minor', '1.3.0'],
    ['1.2.3', 'patch', '1.2.4'],
    ['1.2.3', 'prerelease', '1.2.4-0'],
    ['1.2.3-rc.1', 'prerelease', '1.2.3-rc.2'],
    ['1.2.3-rc', 'prerelease', '1.2.3-rc.0'],
    ['1.2.3-rc.1', 'patch', '1.2.3'],
    ['2.0.0-rc.1', 'major', '2.0.0'],
    ['1.3.0-beta', 'minor', '1.3.0'],
  ] as const)('inc(%s, %s) is %s', (version, kind, expected) => {
    expect(inc(version, kind)).toBe(expected);
  });
});
