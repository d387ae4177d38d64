import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './selfplay-helpers.js';

export const PYTHON = '/usr/bin/python3';

/**
 * A smaller tiny model than the default: the injector prompt is ~10k byte tokens and the
 * hand-written attention is quadratic in it, so one layer of width 16 keeps a turn at seconds on
 * this CPU. The loop is under test, not the model.
 */
export const FAST_TINY_CONFIG = JSON.stringify({ d_model: 16, n_layers: 1, n_heads: 1, d_ff: 32, attn_chunk: 2048 });

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

/** The real trainer service (trainer/ssr_trainer/service.py) on a free port, started with `args` after the defaults; resolves its URL. */
export function startTrainerService(args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(PYTHON, ['-m', 'ssr_trainer.service', '--model', 'tiny', '--model-config', FAST_TINY_CONFIG, '--port', '0', '--host', '127.0.0.1', '--threads', '1', ...args], {
    cwd: join(ROOT, 'trainer'), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the trainer did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output += String(chunk);
      const url = /serving .* on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the trainer exited (${code}):\n${output}`)));
  });
}
