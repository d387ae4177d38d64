import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { COMMAND_LOADERS } from '../../../src/cli/commands/index.js';
import { buildProgram, main } from '../../../src/cli/main.js';

const everyCommand = await buildProgram();

describe('ssr --help', () => {
  const program = everyCommand;

  it('lists every command on one line of at most 80 columns', () => {
    const help = program.helpInformation({ error: false });
    const listed = help.slice(help.indexOf('Commands:')).split('\n').slice(1).filter((line) => line.trim() !== '');
    const names = [...program.commands.map((command) => command.name()), 'help'];
    // A wrapped summary would show up as a line that starts with no command name.
    for (const line of listed) expect(names, line).toContain(line.trim().split(/\s+/)[0]);
    expect(listed).toHaveLength(names.length);
    for (const line of listed) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it.each(everyCommand.commands.map((command) => [command.name(), command] as const))('%s documents every flag', (_name, command) => {
    expect(command.summary(), 'summary').not.toBe('');
    expect(command.description().length).toBeGreaterThan(10);
    for (const option of command.options) expect(option.description, option.flags).not.toBe('');
  });

  it.each(COMMAND_LOADERS.map(([name]) => name))('ssr %s loads only its own command (the start-up of one command pays for no other)', async (name) => {
    const program = await buildProgram(name);
    expect(program.commands.map((command) => command.name())).toEqual([name]);
    expect(program.commands[0]!.summary(), 'summary').not.toBe('');
  });

  it('loads every command when the first word names none (ssr --help, ssr help, a typo)', async () => {
    for (const first of [undefined, '--help', 'help', 'valdate']) expect((await buildProgram(first)).commands.map((command) => command.name())).toEqual(COMMAND_LOADERS.map(([name]) => name));
  });
});

describe('ssr --version', () => {
  it("prints package.json's version and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
    try {
      for (const flag of ['--version', '-V']) expect(await main([flag])).toBe(0);
    } finally {
      write.mockRestore();
    }
    expect(written).toEqual([`${version}\n`, `${version}\n`]);
  });
});
