import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TRAINER_DIR = fileURLToPath(new URL('../../../trainer/', import.meta.url));

/** A trainer service started for the benchmark (the tiny model unless `args` say otherwise); resolves its URL. */
export function startSamplingService(python: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(python, ['-m', 'ssr_trainer.service', '--model', 'tiny', '--port', '0', '--host', '127.0.0.1', ...args], { cwd: TRAINER_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += String(chunk);
      const url = /serving .* on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ child, url });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the trainer service exited (${code}):\n${output}`)));
  });
}
