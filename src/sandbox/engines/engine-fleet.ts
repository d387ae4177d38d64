import type Docker from 'dockerode';
import { EngineError } from '../../util/engine-error.js';
import type { ProgressSink } from '../../util/progress.js';
import { DockerProvider } from '../docker/docker-provider.js';
import { AheadProvider } from '../pool/ahead-provider.js';
import { PooledProvider } from '../pool/pooled-provider.js';
import type { SandboxProvider } from '../sandbox.js';
import type { EngineAddress } from './engine-address.js';
import { slotsOf, type EngineFacts } from './engine-info.js';
import { Placement } from './placement.js';
import { probeEngines } from './probe-engine.js';
import { imageId, shareImage } from './share-image.js';

/** One engine of the fleet. */
export interface FleetEngine {
  readonly name: string;
  readonly docker: Docker;
  readonly facts: EngineFacts;
  readonly slots: number;
  readonly provider: SandboxProvider;
  /** Null while up; why it was marked down otherwise. */
  down: string | null;
  /** Aborted when the engine is marked down: the episodes on it stop. Replaced when it is back. */
  lost: AbortController;
}

/** A slot on one engine for one episode: every sandbox of the episode comes from `provider`. */
export interface EngineLease {
  readonly engine: string;
  readonly provider: SandboxProvider;
  /** Aborted when the engine is lost while the lease is held. */
  readonly lost: AbortSignal;
  /** Give the slot back (once). */
  release(): void;
}

export interface FleetOptions {
  /** `--slots-per-host N`; default from each engine's CPUs and memory (slotsOf). */
  slotsPerHost?: number;
  /** `--warm N`: sandboxes per image started ahead on each engine. */
  warm?: number;
  /** First wait before an engine marked down is probed again (doubles up to 60 s). */
  retryMs?: number;
  /** Told when an engine is marked down or comes back. */
  log?: (line: string) => void;
}

const MAX_RETRY_MS = 60_000;

/**
 * The Docker engines of a run (`--docker-host`, repeatable): each probed at start-up, its slots
 * known, images made the same on all, episodes placed on the least loaded (Placement). An engine
 * that stops answering is marked down, its episodes' `lost` signals abort, and it is probed again
 * with backoff; once it answers (and has the run's images) it takes episodes again.
 */
export class EngineFleet {
  readonly placement: Placement;
  private readonly byName: Map<string, FleetEngine>;
  private readonly images = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  private constructor(
    readonly engines: readonly FleetEngine[],
    private readonly options: FleetOptions,
  ) {
    this.byName = new Map(engines.map((engine) => [engine.name, engine]));
    this.placement = new Placement(engines.map((engine) => ({ id: engine.name, slots: engine.slots })));
  }

  /**
   * Probe every engine (in parallel). @throws EngineError listing every engine that is
   * unreachable or refused, each with its fix, before anything runs.
   */
  static async connect(addresses: readonly EngineAddress[], options: FleetOptions = {}): Promise<EngineFleet> {
    if (addresses.length === 0) throw new EngineError('usage', 'no Docker engine given (--docker-host URL or SSR_DOCKER_HOSTS)');
    const engines = (await probeEngines(addresses)).map(({ address, docker, facts }) => {
      const inner = new DockerProvider(docker);
      const slots = options.slotsPerHost ?? slotsOf(facts);
      // As on one engine (run-selfplay): validation's queued runs find their sandboxes started on
      // this engine while the runs before them hold its slots, at most its slots ahead per image.
      const provider = new AheadProvider(options.warm ? new PooledProvider(inner, options.warm) : inner, slots);
      return { name: address.name, docker, facts, slots, provider, down: null, lost: new AbortController() };
    });
    return new EngineFleet(engines, options);
  }

  /** The engine of a name. @throws Error for a name not in the fleet (a bug in the caller). */
  engine(name: string): FleetEngine {
    const engine = this.byName.get(name);
    if (!engine) throw new Error(`${name} is not an engine of this run`);
    return engine;
  }

  /** Engines that are up now. */
  get upCount(): number {
    return this.engines.filter((engine) => engine.down === null).length;
  }

  /**
   * Make `tag` present on every engine, the same image everywhere: built (by `build`) on the first
   * engine when none has it, then streamed from one that has it to each that has not.
   */
  async ensureImage(tag: string, build: (docker: Docker) => Promise<string>, progress: ProgressSink): Promise<void> {
    let source: FleetEngine | undefined;
    for (const engine of this.engines) if (source === undefined && (await imageId(engine.docker, tag)) !== null) source = engine;
    if (source === undefined) {
      source = this.engines[0]!;
      const built = await build(source.docker);
      if (built !== tag) throw new Error(`built ${built}, expected ${tag}`);
    }
    for (const engine of this.engines) if (engine !== source) await shareImage(source, engine, tag, progress);
    this.images.add(tag);
  }

  /** A slot for one episode on the least-loaded engine that is up (waits for one; rejects when `signal` aborts). */
  async lease(signal?: AbortSignal): Promise<EngineLease> {
    const name = await this.placement.place(signal);
    const engine = this.engine(name);
    let released = false;
    return {
      engine: name,
      provider: engine.provider,
      lost: engine.lost.signal,
      release: () => {
        if (released) return;
        released = true;
        this.placement.release(name);
      },
    };
  }

  /** The engine stopped answering: place nothing more there, stop its episodes, probe it again with backoff. */
  markDown(name: string, reason: string): void {
    const engine = this.engine(name);
    if (engine.down !== null || this.closed) return;
    engine.down = reason;
    this.placement.markDown(name);
    engine.lost.abort(new Error(`${name} was lost: ${reason}`));
    this.options.log?.(`${name} is down (${reason}); its episodes are discarded and placed on the other engines; retrying it with backoff`);
    this.retry(engine, this.options.retryMs ?? 1000);
  }

  /** Stop probing engines that are down and remove the sandboxes started ahead (validation's, and --warm's). */
  async dispose(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const results = await Promise.allSettled(this.engines.map((engine) => engine.provider.dispose?.()));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private retry(engine: FleetEngine, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.revive(engine).then(
        (back) => {
          if (!back) this.retry(engine, Math.min(delayMs * 2, MAX_RETRY_MS));
        },
        () => this.retry(engine, Math.min(delayMs * 2, MAX_RETRY_MS)),
      );
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Probe a down engine; when it answers and holds the run's images (streamed again if lost), mark it up. */
  private async revive(engine: FleetEngine): Promise<boolean> {
    if (this.closed) return true;
    await engine.docker.ping();
    const source = this.engines.find((other) => other !== engine && other.down === null);
    for (const tag of this.images) {
      if ((await imageId(engine.docker, tag)) !== null && source === undefined) continue;
      if (source !== undefined) await shareImage(source, engine, tag, () => {});
    }
    if (this.closed) return true;
    engine.lost = new AbortController();
    engine.down = null;
    this.placement.markUp(engine.name);
    this.options.log?.(`${engine.name} is back up`);
    return true;
  }
}
