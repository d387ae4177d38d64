import type { EngineFleet, EngineLease } from '../sandbox/engines/engine-fleet.js';
import { errorMessage } from '../util/engine-error.js';
import type { RunHealth } from './engine-health.js';

const PING_TIMEOUT_MS = 3000;

/**
 * The health an episode placed on one engine of a fleet sees. An infrastructure failure there
 * that is the engine itself (`docker-unavailable`, or the engine no longer answering a ping)
 * marks that engine down: the episodes on it stop as `engine-stopped` (discarded, never scored)
 * and the run goes on on the others; only when no engine is left does the run stop. Other
 * failures count towards the run's own limit of failures in a row.
 */
export class LeaseHealth implements RunHealth {
  readonly signal: AbortSignal;

  constructor(
    private readonly run: RunHealth,
    private readonly fleet: EngineFleet,
    private readonly lease: EngineLease,
  ) {
    this.signal = AbortSignal.any([run.signal, lease.lost]);
  }

  get stopped(): string | null {
    if (this.run.stopped !== null) return this.run.stopped;
    return this.lease.lost.aborted ? errorMessage(this.lease.lost.reason) : null;
  }

  /** Whether this episode's engine was lost while it ran (the run itself going on). */
  get engineLost(): boolean {
    return this.lease.lost.aborted && this.run.stopped === null;
  }

  reportSuccess(): void {
    this.run.reportSuccess();
  }

  async reportFailure(code: string | undefined, detail: string): Promise<void> {
    if (this.stopped !== null) return;
    const engine = this.fleet.engine(this.lease.engine);
    const gone = code === 'docker-unavailable' ? detail : await pingFails(engine.docker);
    if (gone === null) return this.run.reportFailure(code, detail);
    this.fleet.markDown(this.lease.engine, gone.split('\n')[0]!.slice(0, 300));
    if (this.fleet.upCount === 0) this.run.stop(`every Docker engine is down, the last: ${this.lease.engine} (${gone.split('\n')[0]})`);
  }

  stop(reason: string): void {
    this.run.stop(reason);
  }
}

async function pingFails(docker: { ping(): Promise<unknown> }): Promise<string | null> {
  try {
    await Promise.race([docker.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS).unref())]);
    return null;
  } catch (error) {
    return `it does not answer a ping (${errorMessage(error)})`;
  }
}
