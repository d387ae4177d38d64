import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { registerSelfplay } from '../../../src/cli/commands/selfplay.js';
import { DEFAULT_MAX_STALENESS, METHOD_MAX_STALENESS, dropLost, dropStale } from '../../../src/rl/staleness.js';
import { selfplaySettingsSchema } from '../../../src/selfplay/selfplay-settings.js';
import { EngineError } from '../../../src/util/engine-error.js';

const sample = (role: 'injector' | 'solver', policyVersion: number) => ({ id: `${role}-${policyVersion}`, role, policyVersion });

describe('dropStale', () => {
  it('has one default, 1, in the CLI, the settings schema and dropStale; the method allows 8 (§9)', () => {
    const program = new Command();
    registerSelfplay(program);
    const flag = program.commands.find((command) => command.name() === 'selfplay')?.options.find((option) => option.long === '--max-staleness');
    expect(flag?.defaultValue).toBe(1);
    expect(selfplaySettingsSchema.parse({ episodesPerStep: 1 }).maxStaleness).toBe(1);
    expect(dropStale([sample('solver', 3), sample('solver', 4)], 5).kept.map((s) => s.id)).toEqual(['solver-4']);
    expect(DEFAULT_MAX_STALENESS).toBe(1);
    expect(METHOD_MAX_STALENESS).toBe(8);
  });

  it.each([
    [10, 2, true],
    [10, 1, false],
    [10, 10, true],
    [8, 0, true],
    [9, 0, false],
  ])('with the method bound, trainer at v%i keeps a sample from v%i: %s', (current, version, kept) => {
    const result = dropStale([sample('solver', version)], current, METHOD_MAX_STALENESS);
    expect(result.kept).toHaveLength(kept ? 1 : 0);
    expect(result.dropped.solver).toBe(kept ? 0 : 1);
  });

  it('counts the dropped samples by role and keeps the order of the rest', () => {
    const samples = [sample('solver', 5), sample('injector', 0), sample('solver', 1), sample('injector', 4), sample('solver', 0)];
    const { kept, dropped } = dropStale(samples, 5, 3);
    expect(kept.map((s) => s.id)).toEqual(['solver-5', 'injector-4']);
    expect(dropped).toEqual({ injector: 1, solver: 2 });
  });

  it('counts every sample, kept or dropped, by version lag', () => {
    const samples = [sample('solver', 5), sample('injector', 4), sample('solver', 4), sample('solver', 0)];
    expect(dropStale(samples, 5, 1).lags).toEqual({ 0: 1, 1: 2, 5: 1 });
  });

  it('with 0 keeps only the current version', () => {
    expect(dropStale([sample('solver', 3), sample('solver', 2)], 3, 0).kept.map((s) => s.id)).toEqual(['solver-3']);
  });

  it.each([
    ['a sample newer than the trainer', () => dropStale([sample('injector', 4)], 3), /injector-4 comes from policy version 4, newer than the trainer's 3/],
    ['a negative max staleness', () => dropStale([], 3, -1), /max staleness must be a non-negative integer, got -1/],
  ])('throws for %s', (_name, run, message) => {
    expect(run).toThrow(EngineError);
    expect(run).toThrow(message);
  });
});

describe('dropLost', () => {
  const sampled = (episodeId: string, policyVersion: number) => ({ episodeId, policyVersion });

  it('keeps everything without a resume', () => {
    expect(dropLost([sampled('a', 9)], null)).toEqual({ kept: [sampled('a', 9)], lost: 0 });
  });

  it('drops the pending episodes\' samples from weights newer than the checkpoint, nothing else', () => {
    const samples = [sampled('old', 4), sampled('old', 3), sampled('other', 6), sampled('new', 5)];
    expect(dropLost(samples, { version: 3, pending: ['old', 'other'] })).toEqual({ kept: [sampled('old', 3), sampled('new', 5)], lost: 2 });
  });
});
