import { EngineError } from '../../util/engine-error.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox.js';
import { templateKey } from './template-key.js';
import { WarmPool } from './warm-pool.js';

/**
 * `--warm N`: wraps a provider so that every template it is asked for keeps N fresh sandboxes
 * started ahead of demand (see {@link WarmPool}); another template (another repo, a rebuilt
 * image) gets its own pool. Acquire then costs a hand-over instead of a create and start.
 * {@link dispose} removes every sandbox still waiting; the run must call it on every way out.
 */
export class PooledProvider implements SandboxProvider {
  readonly backend: SandboxProvider['backend'];
  private readonly pools = new Map<string, WarmPool>();
  private disposed = false;

  constructor(
    private readonly inner: SandboxProvider,
    private readonly warm: number,
  ) {
    if (!Number.isInteger(warm) || warm <= 0) throw new EngineError('usage', `--warm: expected a positive integer, got ${warm}`);
    this.backend = inner.backend;
  }

  acquire(template: SandboxTemplate): Promise<Sandbox> {
    if (this.disposed) return Promise.reject(new EngineError('sandbox-failed', `the warm pool of ${template.repoId} is disposed`));
    // Checked here, not left to the inner provider: a wrong template would fill a pool with failures.
    if (template.backend !== this.backend) {
      return Promise.reject(new EngineError('usage', `a ${this.backend} warm pool cannot use a ${template.backend} template`));
    }
    const key = templateKey(template);
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = new WarmPool(() => this.inner.acquire(template), this.warm, `${template.repoId} (${template.ref})`);
      this.pools.set(key, pool);
    }
    return pool.take();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.dispose()));
    await this.inner.dispose?.();
  }
}
