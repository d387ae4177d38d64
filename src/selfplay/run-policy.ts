import type PQueue from 'p-queue';
import type { Policy, PolicyRequest, PolicyTurn } from '../policy/policy.js';
import type { SamplerState } from '../training/sampler-state.js';
import { EngineError } from '../util/engine-error.js';

/** A policy that can be told the trainer moved its weights, and the model name to sample them by (TokensPolicy has both). */
interface VersionAware {
  advanceVersion?(version: number): void;
  useModel?(model: string): void;
}

/**
 * The policy as a run uses it: every call goes through the `policy` lane, and `version` follows
 * the trainer. After a trainer step the run calls {@link RunPolicy.advanceTo}: the policy then
 * reports the new version for every turn it samples (a chat-mode turn carries `policy.version`;
 * a tokens-mode policy is told too, for servers that do not report their own version).
 */
export class RunPolicy implements Policy {
  private floor: number;

  constructor(
    private readonly inner: Policy,
    private readonly lane: PQueue,
  ) {
    this.floor = inner.version;
  }

  get name(): string {
    return this.inner.name;
  }

  get version(): number {
    return Math.max(this.inner.version, this.floor);
  }

  complete(request: PolicyRequest): Promise<PolicyTurn> {
    return this.lane.add(() => this.inner.complete(request), { signal: request.signal });
  }

  endEpisode(episodeId: string): void {
    this.inner.endEpisode?.(episodeId);
  }

  takePhaseTimes(episodeId: string): Partial<Record<string, number>> | undefined {
    return this.inner.takePhaseTimes?.(episodeId);
  }

  /**
   * The sampler confirmed serving `state` after a sync: sample as that version, by its model name
   * when it has one (a vLLM LoRA adapter).
   *
   * @throws EngineError `usage` when the sampler needs a model name this policy cannot switch to.
   */
  serve(state: SamplerState): void {
    if (state.model !== undefined) {
      const inner = this.inner as VersionAware;
      if (inner.useModel === undefined) {
        throw new EngineError('usage', `the sampler serves the new weights as model ${state.model}, which the ${this.inner.name} policy cannot switch to: use --policy tokens`);
      }
      inner.useModel(state.model);
    }
    this.advanceTo(state.version);
  }

  /** The trainer produced weights `version`: sample as that version from now on. */
  advanceTo(version: number): void {
    this.floor = Math.max(this.floor, version);
    (this.inner as VersionAware).advanceVersion?.(version);
  }
}
