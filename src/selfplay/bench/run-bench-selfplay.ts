import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

export interface BenchSelfplayOptions {
  repo: string;
  /** A repos file other than ./repos.yaml. */
  reposFile?: string;
  strategy: string;
  episodes: number;
  attempts: number;
  seed: string;
  out: string;
}

/**
 * One real `ssr selfplay` step of the procedural policy (no order-2 bugs), as the benchmarks
 * measure it: a child process, so the figures include everything a user's run does. With no
 * Solver attempts it is `ssr corpus` instead (the same run dir: injection and validation only).
 * @returns the wall time of the command, ms.
 */
export async function runBenchSelfplay(options: BenchSelfplayOptions): Promise<number> {
  const started = Date.now();
  const repos = options.reposFile ? ['--repos', options.reposFile] : [];
  const shared = ['--policy', 'procedural', '--strategy', options.strategy, '--seed', options.seed, '--out', options.out, '--json'];
  const command = options.attempts === 0
    ? ['corpus', ...repos, '--repo', options.repo, '--per-repo', String(options.episodes), '--solve-attempts', '0', ...shared]
    : ['selfplay', '--repo', options.repo, ...repos, '--steps', '1', '--episodes-per-step', String(options.episodes), '--attempts', String(options.attempts),
        '--higher-order-cap', '0', ...shared];
  await run(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...command], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return Date.now() - started;
}
