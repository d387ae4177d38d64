import type Docker from 'dockerode';
import { SWEEP_SCRIPT } from '../exec-scripts.js';

/** Start the sweep and wait for it at most `budgetMs`; never throws (the sandbox may be gone or out of pids). */
export async function killByMarker(container: Docker.Container, marker: string, budgetMs: number): Promise<boolean> {
  const attempt = async (): Promise<boolean> => {
    const exec = await container.exec({ Cmd: ['bash', '-c', SWEEP_SCRIPT, 'ssr-sweep', marker], AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    stream.resume();
    await new Promise((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', resolve);
    });
    return (await exec.inspect()).ExitCode === 0;
  };
  const deadline = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), budgetMs).unref());
  return Promise.race([attempt().catch(() => false), deadline]);
}
