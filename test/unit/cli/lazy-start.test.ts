import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Packages (by their folder under node_modules) a fresh process has loaded after building the program for `command`. */
async function loadedPackages(command: string): Promise<string[]> {
  const probe = `
    const { createRequire } = await import('node:module');
    const { buildProgram } = await import(${JSON.stringify(`${ROOT}src/cli/main.ts`)});
    await buildProgram(${JSON.stringify(command)});
    const cache = createRequire(import.meta.url).cache;
    const names = Object.keys(cache).map((file) => file.match(/node_modules\\/(@[^/]+\\/[^/]+|[^/]+)/)?.[1]).filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)].sort()));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: ROOT });
  return JSON.parse(stdout) as string[];
}

describe('start-up of one command', () => {
  // The Kubernetes client alone is over a second of CPU: a Docker run must not load it. dockerode
  // (ssh2, gRPC: a tenth of a second) comes at the first Docker call, which --help never makes.
  it('ssr validate loads neither dockerode nor the Kubernetes client at start', async () => {
    const loaded = await loadedPackages('validate');
    expect(loaded).toContain('commander');
    // repos.yaml is read when the command runs, never for --help (start-up-imports.test.ts has the ESM side).
    expect(loaded).not.toContain('yaml');
    expect(loaded).not.toContain('dockerode');
    expect(loaded).not.toContain('ssh2');
    expect(loaded).not.toContain('@kubernetes/client-node');
    // Not for a repo named by its id with no terminal: the progress bar, and simple-git (seen
    // through its own dependency: its ESM entry is not in require's cache), for a path's HEAD only.
    expect(loaded).not.toContain('cli-progress');
    expect(loaded).not.toContain('@kwsites/file-exists');
  });

  it('ssr corpus loads no dockerode at start either', async () => {
    expect(await loadedPackages('corpus')).not.toContain('dockerode');
  });
});
