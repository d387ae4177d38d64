import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run `ssr <args>` in this process (the real CLI entry), capturing what it writes to stdout and
 * stderr; the streams and `process.exitCode` are put back afterwards, whatever happened.
 */
export async function runCli(args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    process.exitCode = undefined;
    return { code: await main(args), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  }
}
