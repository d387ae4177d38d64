import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';

describe('ssr --help', () => {
  const program = buildProgram();

  it('lists every command on one line of at most 80 columns', () => {
    const help = program.helpInformation({ error: false });
    const listed = help.slice(help.indexOf('Commands:')).split('\n').slice(1).filter((line) => line.trim() !== '');
    const names = [...program.commands.map((command) => command.name()), 'help'];
    // A wrapped summary would show up as a line that starts with no command name.
    for (const line of listed) expect(names, line).toContain(line.trim().split(/\s+/)[0]);
    expect(listed).toHaveLength(names.length);
    for (const line of listed) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it.each(buildProgram().commands.map((command) => [command.name(), command] as const))('%s documents every flag', (_name, command) => {
    expect(command.summary(), 'summary').not.toBe('');
    expect(command.description().length).toBeGreaterThan(10);
    for (const option of command.options) expect(option.description, option.flags).not.toBe('');
  });
});
