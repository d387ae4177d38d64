import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox.js';

/**
 * The k8s provider behind a dynamic import, loaded on the first acquire: the Kubernetes client
 * costs about a second of start-up that no Docker or bwrap run should pay (every command builds
 * its provider through sandbox-factory, which is why it must not import the client itself).
 */
export class LazyK8sProvider implements SandboxProvider {
  readonly backend = 'k8s' as const;
  private provider: Promise<SandboxProvider> | undefined;

  async acquire(template: SandboxTemplate): Promise<Sandbox> {
    this.provider ??= import('./k8s-provider.js').then(({ K8sProvider }) => new K8sProvider());
    return (await this.provider).acquire(template);
  }
}
