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

describe('roleLimits on the settings self-play and corpus parse', () => {
  it('derives the command limit of a slow repo when no limit was set (the parsed settings do not invent one)', async () => {
    const { selfplaySettingsSchema } = await import('../../../src/selfplay/selfplay-settings.js');
    // What `ssr corpus` / `ssr selfplay` pass without --command-timeout: empty limit objects.
    const settings = selfplaySettingsSchema.parse({ episodesPerStep: 2, attempts: 0, injectorLimits: {}, solverLimits: {} });
    expect(settings.injectorLimits).toEqual({});
    expect(roleLimits(settings.injectorLimits, 600_000)).toEqual({ commandTimeoutMs: 630_000 });
    expect(roleLimits(selfplaySettingsSchema.parse({ episodesPerStep: 2, attempts: 0, solverLimits: { maxTurns: 9 } }).solverLimits, 600_000)).toEqual({ maxTurns: 9, commandTimeoutMs: 630_000 });
  });
});
