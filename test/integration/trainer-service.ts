import { execFileSync, type ChildProcess } from 'node:child_process';
import { FAST_TINY_CONFIG, startSamplingService } from '../../src/training/bench/sampling-service.js';

export const PYTHON = '/usr/bin/python3';

/**
 * The trainer service needs Debian's torch (and jinja2 for `--chat-template`) for /usr/bin/python3.
 * scripts/setup-host installs them once; a test never runs apt itself (parallel workers would race
 * for its lock), it says what is missing and how to get it.
 */
export function requireTrainerPython(): void {
  try {
    execFileSync(PYTHON, ['-c', 'import torch, jinja2'], { stdio: 'ignore' });
  } catch {
    throw new Error(`${PYTHON} lacks torch or jinja2, which the trainer service needs: run scripts/setup-host (apt-get install python3-torch python3-jinja2)`);
  }
}

/** The real trainer service (trainer/ssr_trainer/service.py), the fast tiny model, on a free port; `args` come after the defaults (later flags win). */
export function startTrainerService(args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  return startSamplingService(PYTHON, ['--model-config', FAST_TINY_CONFIG, '--threads', '1', ...args]);
}
