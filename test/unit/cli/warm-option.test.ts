import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import { runCli } from '../../helpers/cli.js';

const EPISODE_COMMANDS = ['selfplay', 'corpus', 'inject', 'solve'];

describe('--warm <n>', () => {
  it('is offered by exactly the commands that run episodes', async () => {
    const offering = (await buildProgram()).commands.filter((command) => command.options.some((option) => option.long === '--warm'));
    expect(offering.map((command) => command.name()).sort()).toEqual([...EPISODE_COMMANDS].sort());
  });

  it.each(EPISODE_COMMANDS.flatMap((command) => ['0', '-2', '1.5', 'two'].map((value) => [command, value] as const)))(
    'ssr %s --warm %s is a usage error naming the flag',
    async (command, value) => {
      const run = await runCli([command, '--warm', value]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--warm: expected a positive integer, got "${value}"`);
    },
  );
});
