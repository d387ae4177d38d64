import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../src/duration';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['1h30m', 5_400_000],
    ['1.5 hours', 5_400_000],
    ['2d 4h', 187_200_000],
    ['1 week, 1 day', 691_200_000],
    ['90', 90],
    ['-2m', -120_000],
  ] as const)('%j is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('refuses an empty duration with an example', () => {
    expect(() => parseDuration('   ')).toThrow('empty duration: expected e.g. "1h30m" or "250ms"');
  });

  it('names an unknown unit', () => {
    expect(() => parseDuration('3 fortnights')).toThrow('unknown unit "fortnights" in duration "3 fortnights"');
  });

  it('shows where the text stops being a duration', () => {
    expect(() => parseDuration('1h and 2m')).toThrow('invalid duration "1h and 2m" at "and 2m"');
  });
});

describe('formatDuration', () => {
  it.each([
    [5_400_000, '1h 30m'],
    [61_001, '1m 1s 1ms'],
    [-90_000, '-1m 30s'],
    [691_200_000, '1w 1d'],
  ] as const)('%i ms is %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('writes zero as 0ms, not an empty string', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(0, { long: true })).toBe('0 milliseconds');
    expect(formatDuration(0.4)).toBe('0ms');
  });

  it('writes long unit names, singular for one', () => {
    expect(formatDuration(3_661_000, { long: true })).toBe('1 hour 1 minute 1 second');
    expect(formatDuration(7_200_000, { long: true })).toBe('2 hours');
  });

  it('keeps the largest units and rounds the last one kept', () => {
    expect(formatDuration(5_430_000, { maxUnits: 1 })).toBe('2h');
    expect(formatDuration(5_430_000, { maxUnits: 2 })).toBe('1h 31m');
  });

  it('refuses maxUnits below one and non-finite durations', () => {
    expect(() => formatDuration(1, { maxUnits: 0 })).toThrow('maxUnits must be at least 1, got 0');
    expect(() => formatDuration(Infinity)).toThrow('cannot format Infinity as a duration');
  });

  it('round-trips through parseDuration', () => {
    for (const ms of [1, 999, 60_000, 3_723_004, 90_061_000]) expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});
