import { probeDockerBackend } from '../sandbox/select-backend.js';
import type { SandboxBackend } from '../sandbox/sandbox.js';

/** Infrastructure failures in a row (with the engine still answering) after which the run stops. */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;

export interface EngineHealthOptions {
  backend: SandboxBackend;
  maxConsecutiveFailures?: number;
  /** Is the engine reachable? Default: ping the Docker engine (DOCKER_HOST) for the docker backend. */
  probe?: () => Promise<{ ok: boolean; reason: string }>;
}

async function probeDocker(): Promise<{ ok: boolean; reason: string }> {
  const probe = await probeDockerBackend();
  return probe.status === 'ok' ? { ok: true, reason: probe.detail } : { ok: false, reason: probe.reason };
}

/** What the stages of an episode see of the run's health: the run's own, or one engine's (LeaseHealth). */
export interface RunHealth {
  readonly signal: AbortSignal;
  readonly stopped: string | null;
  reportSuccess(): void;
  reportFailure(code: string | undefined, detail: string): Promise<void>;
  stop(reason: string): void;
}

/**
 * Decides when infrastructure failures mean the run cannot go on. One discarded episode is
 * normal (a container died); the engine gone is not: then every further episode would be
 * discarded too. The first `docker-unavailable` failure, a failed probe after any failure, or
 * `maxConsecutiveFailures` failures in a row stop the run: {@link signal} aborts, so running
 * agents end as `cancelled` and nothing new starts; what was finished stays.
 */
export class EngineHealth implements RunHealth {
  private readonly controller = new AbortController();
  private consecutive = 0;
  private reason: string | null = null;
  private readonly max: number;
  private readonly probe: (() => Promise<{ ok: boolean; reason: string }>) | null;
  private readonly engine: string;

  constructor(options: EngineHealthOptions) {
    this.max = options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
    this.probe = options.probe ?? (options.backend === 'docker' ? probeDocker : null);
    this.engine = options.backend === 'docker' ? 'the Docker engine' : 'the sandbox backend';
  }

  /** Aborted once the run is stopping. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the run stopped; null while it goes on. */
  get stopped(): string | null {
    return this.reason;
  }

  /** A piece of work finished normally: the engine works. */
  reportSuccess(): void {
    this.consecutive = 0;
  }

  /** A piece of work failed on the infrastructure (`code`: the EngineError code when known). */
  async reportFailure(code: string | undefined, detail: string): Promise<void> {
    if (this.reason !== null) return;
    if (code === 'docker-unavailable') return this.stop(`the Docker engine is unreachable (${firstLine(detail)})`);
    this.consecutive += 1;
    if (this.probe) {
      const probe = await this.probe();
      if (!probe.ok) return this.stop(`${this.engine} is unreachable (${firstLine(probe.reason)})`);
    }
    if (this.consecutive >= this.max) this.stop(`${this.consecutive} infrastructure failures in a row, the last: ${firstLine(detail)}`);
  }

  /** Stop the run now (first reason wins). */
  stop(reason: string): void {
    if (this.reason !== null) return;
    this.reason = reason;
    this.controller.abort(new Error(reason));
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 300);
}
