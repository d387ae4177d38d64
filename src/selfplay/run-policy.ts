import type PQueue from 'p-queue';
import type { Policy, PolicyRequest, PolicyTurn } from '../policy/policy.js';

/** A policy that can be told the trainer moved its weights (TokensPolicy has it). */
interface VersionAware {
  advanceVersion?(version: number): void;
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

  /** The trainer produced weights `version`: sample as that version from now on. */
  advanceTo(version: number): void {
    this.floor = Math.max(this.floor, version);
    (this.inner as VersionAware).advanceVersion?.(version);
  }
}
