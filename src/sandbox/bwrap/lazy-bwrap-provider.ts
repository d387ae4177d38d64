import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox.js';

/**
 * The bwrap provider behind a dynamic import, loaded on the first acquire: every command builds
 * its provider through sandbox-factory, and a Docker run should not load bubblewrap's modules
 * (its cgroup probes and runner) at start (the same reason as LazyK8sProvider).
 */
export class LazyBwrapProvider implements SandboxProvider {
  readonly backend = 'bwrap' as const;
  private provider: Promise<SandboxProvider> | undefined;

  async acquire(template: SandboxTemplate): Promise<Sandbox> {
    this.provider ??= import('./bwrap-provider.js').then(({ BwrapProvider }) => new BwrapProvider());
    return (await this.provider).acquire(template);
  }
}
