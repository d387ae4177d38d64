import { describe, expect, it } from 'vitest';
import { readInjectorSettings, requestedStrategy } from '../../../../src/policy/procedural/injector/injector-settings.js';
import { seededRng } from '../../../../src/util/seeded-rng.js';

describe('requestedStrategy', () => {
  it.each([
    ['Strategy: removal', 'removal'],
    ['**Strategy**: history', 'history'],
    ['strategy = direct', 'direct'],
    ['Use the history strategy this time.', 'history'],
    ['Strategy: mixed', 'mixed'],
    ['Remove significant code hunks: delete whole functions, then make compatibility fixes so it imports.', 'removal'],
    ['Use git log and git show to find past fix commits in the history and revert them.', 'history'],
    ['Directly inject any bug you like, free-form.', 'direct'],
    ['Break the code: remove functions and delete code hunks, or revert past fix commits found with git log.', 'mixed'],
    ['Break the code.', 'unknown'],
  ])('%j → %s', (text, expected) => {
    expect(requestedStrategy(text)).toBe(expected);
  });
});

describe('readInjectorSettings', () => {
  it('maps direct to operator mutations and reads thresholds', () => {
    const settings = readInjectorSettings('Strategy: direct.', 'min_changed_files: 2, min_failing_tests = 3, min_passing_tests: 25', seededRng(1));
    expect(settings).toEqual({ strategy: 'operator', requested: 'direct', minChangedFiles: 2, minFailingTests: 3, minPassingTests: 25, maxFailingTests: 40, maxFailingFiles: 8 });
  });

  it('reads thresholds written in words', () => {
    const settings = readInjectorSettings('Change at least 3 code files. At least 2 tests must fail.', 'Strategy: removal', seededRng(1));
    expect(settings).toMatchObject({ minChangedFiles: 3, minFailingTests: 2, minPassingTests: 10 });
  });

  it('defaults to method §3 thresholds', () => {
    expect(readInjectorSettings('Strategy: history', '', seededRng(1))).toMatchObject({ minChangedFiles: 1, minFailingTests: 1, minPassingTests: 10 });
  });

  it('draws removal or history for a mixed or unclear prompt, reproducibly per seed', () => {
    const draws = Array.from({ length: 32 }, (_, seed) => readInjectorSettings('Strategy: mixed', '', seededRng(seed)).strategy);
    expect(new Set(draws)).toEqual(new Set(['removal', 'history']));
    expect(readInjectorSettings('Break it.', '', seededRng(7)).strategy).toBe(readInjectorSettings('Break it.', '', seededRng(7)).strategy);
  });
});

describe('the real injector prompts (prompts/injector-*.md)', () => {
  it.each([
    ['removal', 'removal'],
    ['history', 'history'],
    ['direct', 'operator'],
  ] as const)('%s prompt → %s, with the thresholds it states', async (strategy, expected) => {
    const { injectorPrompts } = await import('../../../../src/roles/role-prompts.js');
    const { agentLimitsSchema } = await import('../../../../src/agent/agent-limits.js');
    const thresholds = { min_passing_tests: 12, min_changed_files: 2, min_failing_tests: 3, max_failing_tests: 30, max_failing_files: 4 };
    const prompts = injectorPrompts(strategy, { thresholds, testTimeoutMs: 90_000 }, agentLimitsSchema.parse({}));
    expect(readInjectorSettings(prompts.systemPrompt, prompts.userPrompt, seededRng(1))).toEqual({
      strategy: expected,
      requested: strategy,
      minChangedFiles: 2,
      minFailingTests: 3,
      minPassingTests: 12,
      maxFailingTests: 30,
      maxFailingFiles: 4,
    });
  });
});
