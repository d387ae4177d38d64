import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TRAINER_DIR = fileURLToPath(new URL('../../../trainer/', import.meta.url));
const START_TIMEOUT_MS = 60_000;

/**
 * A smaller tiny model than the default, one layer of width 16: per-token work small enough that
 * an agent turn over a ~10k-byte-token prompt takes seconds on a CPU (the quadratic hand-written
 * attention), and that batching, not raw FLOPs, decides sampling speed. The integration tests use it too.
 */
export const FAST_TINY_CONFIG = JSON.stringify({ d_model: 16, n_layers: 1, n_heads: 1, d_ff: 32, attn_chunk: 2048 });

/**
 * A trainer service (trainer/ssr_trainer/service.py) on a free port, the tiny model unless `args`
 * say otherwise (later flags win); resolves its URL from the start line.
 */
export function startSamplingService(python: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(python, ['-m', 'ssr_trainer.service', '--model', 'tiny', '--port', '0', '--host', '127.0.0.1', ...args], { cwd: TRAINER_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the trainer service did not start in ${START_TIMEOUT_MS / 1000} s:\n${output}`)), START_TIMEOUT_MS);
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
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the trainer service exited (${code}):\n${output}`));
    });
  });
}
