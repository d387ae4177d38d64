import { execFile } from 'node:child_process';
import { EngineError, type EngineErrorCode } from './engine-error.js';

export interface HostGitOptions {
  /** Working directory (the repository). */
  cwd: string;
  /** Extra environment (e.g. GIT_INDEX_FILE, fixed author dates). */
  env?: Record<string, string>;
  /** What is being done, for the error message. */
  what: string;
  /** Error code when git exits non-zero (default `internal`). */
  code?: EngineErrorCode;
  /** Return stdout exactly as git printed it (a diff's last context line can be a lone space); default trimmed. */
  untrimmed?: boolean;
  /** Largest stdout accepted, bytes (default 64 MiB). */
  maxBuffer?: number;
}

const MAX_BUFFER = 64 * 1024 * 1024;

/**
 * Run real git on the host and return its stdout, trimmed unless `untrimmed`.
 * @throws EngineError `options.code` with git's stderr when it exits non-zero, `internal` when git cannot start.
 */
export function hostGit(args: readonly string[], options: HostGitOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', ...options.env };
    execFile('git', [...args], { cwd: options.cwd, env, maxBuffer: options.maxBuffer ?? MAX_BUFFER, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve(options.untrimmed ? stdout : stdout.trim());
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(new EngineError('sandbox-failed', 'git is not installed on the host: apt-get install git', { cause: error }));
      }
      const started = typeof error.code === 'number';
      const detail = started ? stderr.trim().split('\n').slice(-8).join('\n') || error.message : `cannot run git: ${error.message}`;
      reject(new EngineError(started ? (options.code ?? 'internal') : 'internal', `${options.what} failed: ${detail}`, { cause: error }));
    });
  });
}
