import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import { testTimeoutMsOf } from '../../../src/cli/test-timeout-option.js';
import { resolveTestTimeoutMs } from '../../../src/config/test-timeout.js';

const SRC = join(import.meta.dirname, '../../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []);
}

describe('--test-timeout', () => {
  const repo = { limits: { test_timeout_s: 90 } };

  it('resolves in one place: the override in ms, else the repo limit in s', () => {
    expect(resolveTestTimeoutMs(repo)).toBe(90_000);
    expect(resolveTestTimeoutMs(repo, 5_000)).toBe(5_000);
    expect(testTimeoutMsOf({}, repo)).toBe(90_000);
    expect(testTimeoutMsOf({ testTimeout: 7 }, repo)).toBe(7_000);
  });

  it('is declared and resolved nowhere else in src/ (ssr init declares its own: a starting point, not an override)', () => {
    const offenders = sources(SRC)
      .filter((file) => !/config[\\/]test-timeout\.ts$|cli[\\/]test-timeout-option\.ts$|commands[\\/]init\.ts$/.test(file))
      .filter((file) => /test_timeout_s\)? \* 1000|'--test-timeout </.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
  });

  it('parses the same way on every command that offers it', async () => {
    const program = await buildProgram();
    const offering = program.commands.filter((command) => command.name() !== 'init' && command.options.some((option) => option.long === '--test-timeout'));
    expect(offering.map((command) => command.name()).sort()).toEqual(['corpus', 'grade', 'inject', 'selfplay', 'solve', 'test-run', 'validate']);
    for (const command of offering) {
      const flag = command.options.find((option) => option.long === '--test-timeout');
      expect(() => flag?.parseArg?.('0', undefined), command.name()).toThrow('--test-timeout: expected a positive integer, got "0"');
    }
  });
});
