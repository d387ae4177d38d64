import type { Sandbox, SandboxProvider, SandboxTemplate } from '../../src/sandbox/sandbox.js';

/** A sandbox that only records whether it was disposed. */
export function fakeSandbox(id: string): Sandbox & { disposed: number } {
  return {
    id,
    backend: 'docker',
    disposed: 0,
    exec: () => Promise.reject(new Error('not used')),
    readFile: () => Promise.reject(new Error('not used')),
    writeFile: () => Promise.reject(new Error('not used')),
    async dispose() {
      this.disposed++;
    },
  };
}

/**
 * The engine at the boundary: every acquire is a start the test settles by hand, so it sees what
 * the pool starts and when (`fail` makes the next starts fail).
 */
export class FakeProvider implements SandboxProvider {
  readonly backend = 'docker' as const;
  readonly started: { template: SandboxTemplate; sandbox: ReturnType<typeof fakeSandbox>; settle: () => void; fail: (error: Error) => void }[] = [];
  innerDisposed = 0;

  acquire(template: SandboxTemplate): Promise<Sandbox> {
    const sandbox = fakeSandbox(`box-${this.started.length + 1}`);
    return new Promise((resolve, reject) => {
      this.started.push({ template, sandbox, settle: () => resolve(sandbox), fail: reject });
    });
  }

  async dispose(): Promise<void> {
    this.innerDisposed++;
  }

  settleAll(): void {
    for (const start of this.started) start.settle();
  }
}

export const template = (overrides: Partial<SandboxTemplate> = {}): SandboxTemplate => ({
  backend: 'docker', repoId: 'pyledger', ref: 'ssr-pyledger:abc', limits: { memoryMb: 2048, cpus: 1, pids: 256 }, ...overrides,
});

