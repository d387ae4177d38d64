import { describe, expect, it } from 'vitest';
import { maxSatisfying, parseRange, satisfies } from '../src/range';

describe('satisfies', () => {
  it.each([
    ['1.2.3', '^1.2.0', true],
    ['1.9.9', '^1.2.0', true],
    ['2.0.0', '^1.2.0', false],
    ['1.1.9', '^1.2.0', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.5.0', '>=1.0.0 <2.0.0', true],
    ['2.0.0', '>=1.0.0 <2.0.0', false],
    ['1.0.0', '> 1.0.0', false],
    ['1.4.7', '1.x', true],
    ['2.1.4', '1.x || 2.1.x', true],
    ['2.2.0', '1.x || 2.1.x', false],
    ['9.9.9', '*', true],
    ['1.2.3', '=1.2.3', true],
    ['1.2.4', '1.2.3', false],
  ] as const)('%s in %j is %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('lets a pre-release match only a range naming a pre-release of the same version', () => {
    expect(satisfies('1.3.0-beta.2', '^1.2.0')).toBe(false);
    expect(satisfies('1.3.0-beta.2', '>=1.3.0-beta.1 <2.0.0')).toBe(true);
    expect(satisfies('1.4.0-beta.2', '>=1.3.0-beta.1 <2.0.0')).toBe(false);
  });

  it('never lets an invalid version satisfy', () => {
    expect(satisfies('latest', '*')).toBe(false);
  });

  it('refuses a comparator that is not a version', () => {
    expect(() => parseRange('>=banana')).toThrow('invalid version in range: "banana"');
    expect(() => parseRange('1.2.y')).toThrow('invalid comparator: "1.2.y"');
  });
});

describe('maxSatisfying', () => {
  const versions = ['1.0.0', '1.2.0', '1.10.0', '2.0.0-rc.1', '2.0.0', '2.3.1'];

  it('picks the highest version in the range, not the last one listed', () => {
    expect(maxSatisfying(versions, '^1.0.0')).toBe('1.10.0');
    expect(maxSatisfying(['2.3.1', '2.0.0'], '^2.0.0')).toBe('2.3.1');
  });

  it('is null when no version is in the range', () => {
    expect(maxSatisfying(versions, '^3.0.0')).toBeNull();
  });
});
