import { spawn } from 'node:child_process';

/**
 * Ask the desktop to open a file (`xdg-open` on Linux, `open` on macOS, `start` on Windows),
 * without waiting for the browser. Resolves false when no opener could be started (a headless
 * server): the caller prints the path instead; a report that was written is not a failure.
 */
export function openInBrowser(path: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [path]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', path]] : ['xdg-open', [path]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
