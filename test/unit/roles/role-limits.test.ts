import { describe, expect, it } from 'vitest';
import { roleLimits } from '../../../src/roles/role-limits.js';

describe('roleLimits', () => {
  it.each([
    ['a fast repo keeps the default command limit', {}, 90_000, { commandTimeoutMs: 120_000 }],
    ['a slow repo (gate raised its test limit to 840 s) gets commands long enough for its suite', { maxTurns: 40 }, 840_000, { maxTurns: 40, commandTimeoutMs: 870_000 }],
    ['a command limit the user set is kept as set', { commandTimeoutMs: 60_000 }, 840_000, { commandTimeoutMs: 60_000 }],
  ])('%s', (_name, limits, testTimeoutMs, expected) => {
    expect(roleLimits(limits, testTimeoutMs)).toEqual(expected);
  });
});
