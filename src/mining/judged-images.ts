import { setTimeout as sleep } from 'node:timers/promises';
import { removeTemplate } from '../sandbox/remove-template.js';
import type { PruneResult } from '../sandbox/prune-result.js';
import type { SandboxTemplate } from '../sandbox/sandbox.js';
import { isEngineError } from '../util/engine-error.js';

/** How long the last removal waits for the containers of the last commits judged to go. */
const FINAL_WAIT_MS = 120_000;
const RETRY_MS = 1000;

/**
 * The images (or bwrap templates) `ssr mine` builds to judge commits, removed once each commit is
 * judged: every candidate gets an image of its own that nothing starts again, and a long history
 * would otherwise fill the disk (`ssr eval` of the mined set builds the ones it needs again).
 * Never removed: the image of the repo's pinned commit (self-play's), and any with `keep`
 * (`--keep-images`). Validation removes its containers in the background, so an image still in
 * use is tried again after the next commit, and waited for at the end; one still in use then is
 * kept, with a line saying why.
 */
export class JudgedImages {
  /** Refs removed so far, in order. */
  readonly removed: string[] = [];
  private pending: SandboxTemplate[] = [];

  constructor(
    private readonly pinnedCommit: string,
    private readonly keep: boolean,
    private readonly onLine: (line: string) => void,
  ) {}

  /** judgeCandidate's hook: the template commit `commit` is judged in is ready. */
  readonly onTemplate = (template: SandboxTemplate, commit: string): void => {
    if (this.keep || commit === this.pinnedCommit) return;
    if (!this.pending.some((t) => t.ref === template.ref)) this.pending.push(template);
  };

  /** Remove the templates of the commits judged so far; one still in use stays pending. */
  async removeJudged(): Promise<void> {
    const still: SandboxTemplate[] = [];
    for (const template of this.pending) if ((await this.remove(template)).kept.length > 0) still.push(template);
    this.pending = still;
  }

  /** The last removal, when mining is done: waits for the containers still going, then says what stays. */
  async finish(): Promise<void> {
    const deadline = Date.now() + FINAL_WAIT_MS;
    await this.removeJudged();
    while (this.pending.length > 0 && Date.now() < deadline) {
      await sleep(RETRY_MS);
      await this.removeJudged();
    }
    for (const template of this.pending) {
      const { kept } = await this.remove(template);
      for (const { ref, reason } of kept) this.onLine(`kept the image ${ref} built to judge a commit: ${reason}`);
    }
    this.pending = [];
  }

  private async remove(template: SandboxTemplate): Promise<PruneResult> {
    // Cleaning up is no verdict on a commit: an engine failing here fails the next judgement, which says so.
    const result = await removeTemplate(template).catch((error: unknown) => {
      if (!isEngineError(error)) throw error;
      return { removed: [], kept: [{ ref: template.ref, reason: error.message.split('\n')[0]! }] };
    });
    this.removed.push(...result.removed);
    return result;
  }
}
