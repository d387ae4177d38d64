import { spawn } from 'node:child_process';

export interface ProcessResult {
  exitCode: number | null;
  /** The last lines of stdout+stderr, for error messages. */
  tail: string;
}

const TAIL_LINES = 40;

/**
 * Run a host program, streaming each output line to `onLine` and keeping the last lines for an
 * error message. Never throws for a non-zero exit; a program that cannot start rejects.
 */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; onLine?: (line: string) => void } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    const partial = { out: '', err: '' };
    const feed = (key: 'out' | 'err', chunk: Buffer): void => {
      const parts = (partial[key] + chunk.toString('utf8')).split('\n');
      partial[key] = parts.pop() ?? '';
      for (const line of parts) push(line);
    };
    const push = (line: string): void => {
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
      options.onLine?.(line);
    };
    child.stdout.on('data', (chunk: Buffer) => feed('out', chunk));
    child.stderr.on('data', (chunk: Buffer) => feed('err', chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      for (const rest of [partial.out, partial.err]) if (rest !== '') push(rest);
      resolve({ exitCode: code, tail: lines.join('\n') });
    });
  });
}
