import { describe, expect, it } from 'vitest';
import { maxRunSeconds, readTimeLimits, RUN_FLOOR_S, runLimitSeconds } from '../../../../src/policy/procedural/run-limits.js';
import { injectorPrompts } from '../../../../src/roles/role-prompts.js';
import { agentLimitsSchema } from '../../../../src/agent/agent-limits.js';
import { discover } from '../../../../src/policy/procedural/injector/discover.js';
import type { Observation } from '../../../../src/policy/procedural/observation.js';
import type { ProgramStep } from '../../../../src/policy/procedural/program.js';

const thresholds = { min_passing_tests: 10, min_changed_files: 1, min_failing_tests: 1, max_failing_tests: 40, max_failing_files: 8 };

describe('procedural run limits', () => {
  it('reads the limits the real rendered prompts state', () => {
    const prompts = injectorPrompts('removal', { thresholds, testTimeoutMs: 840_000 }, agentLimitsSchema.parse({ commandTimeoutMs: 900_000 }));
    expect(readTimeLimits(prompts.systemPrompt, prompts.userPrompt)).toEqual({ commandS: 900, testS: 840 });
    expect(readTimeLimits('', '')).toEqual({ commandS: null, testS: null });
  });

  it.each([
    ['a slow suite whose golden limit is 840 s, under a 900 s command limit', { commandS: 900, testS: 840 }, 840],
    ['the test limit, when the command limit is the tighter one', { commandS: 120, testS: 840 }, 105],
    ['the default 90 s test limit under the default command limit', { commandS: 120, testS: 90 }, 90],
    ['no limit stated: the tools\u2019 default', { commandS: null, testS: null }, 105],
    ['never under the floor', { commandS: 12, testS: 3 }, RUN_FLOOR_S],
  ])('%s → %i s', (_name, limits, expected) => {
    expect(maxRunSeconds(limits)).toBe(expected);
  });

  it.each([
    [0.4, 600, 12],
    [2, 600, 16],
    [95, 600, 295],
    [280, 600, 600],
    [0, 600, RUN_FLOOR_S],
  ])('a clean suite of %d s under a %d s cap gives later runs %d s', (clean, max, expected) => {
    expect(runLimitSeconds(clean, max)).toBe(expected);
  });
});

describe('discover times the clean suite', () => {
  const observe = (text: string): Observation => ({ tool: 'bash', text, ok: true, exitCode: 0, timedOut: false, turnsLeft: 100, tokensLeft: 100_000, raw: text });

  it('runs the clean suite under the stated cap and gives later runs a limit from its time', async () => {
    const steps = discover({ coverage: false, maxRunS: 840 });
    const setup = await steps.next();
    expect(setup.done).toBe(false);
    const listing = '@@py 40 900 tests/test_a.py\n@@py 60 1500 pkg/core.py\n';
    const clean = await steps.next(observe(`@@files 3\n@@plain ${listing.length}\n${listing}\n@@plain-end`));
    const command = (clean.value as ProgramStep).args as { command: string };
    expect(command.command).toContain('timeout --kill-after=5 840 ');
    expect(command.command).toContain('@@ms');
    // Per-file durations: each candidate's limit comes from its own tests' clean time.
    expect(command.command).toContain('--durations=0');
    const done = await steps.next(observe('@@exit 0\n@@ms 2000\n@@run passed=5 failed=0\n@@group tests/test_a.py passed=5 failed=0'));
    expect(done.done).toBe(true);
    expect(done.value).toMatchObject({ status: 'ok', facts: { runLimitS: 16 } });
  });
});
