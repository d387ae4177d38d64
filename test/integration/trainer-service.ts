import { execFileSync, type ChildProcess } from 'node:child_process';
import { FAST_TINY_CONFIG, startSamplingService } from '../../src/training/bench/sampling-service.js';

export const PYTHON = '/usr/bin/python3';

/** Debian's torch for /usr/bin/python3, installed the way trainer/run-tests does when missing. */
export function ensureTorch(): void {
  try {
    execFileSync(PYTHON, ['-c', 'import torch'], { stdio: 'ignore' });
  } catch {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'python3-torch'], { env, stdio: 'ignore' });
  }
}

/** The real trainer service (trainer/ssr_trainer/service.py), the fast tiny model, on a free port; `args` come after the defaults. */
export function startTrainerService(args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  return startSamplingService(PYTHON, ['--model-config', FAST_TINY_CONFIG, '--threads', '1', ...args]);
}
