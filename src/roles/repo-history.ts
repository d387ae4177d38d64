import { z } from 'zod';
import { isCodePath } from '../code/classify-path.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';

/**
 * What the history strategy (method §7: undo past changes) has to work with in a repo: a repo
 * imported as one commit, or whose later commits touch no code, gives it nothing to revert.
 */
export const repoHistorySchema = z.object({
  commits: z.number().int().nonnegative().describe('commits reachable from HEAD'),
  revertible: z.number().int().nonnegative().describe('of the last 200 non-merge commits, those that modified a code file (not a test)'),
});
export type RepoHistory = z.infer<typeof repoHistorySchema>;

const MARK = '@@commit';

/** Counts commits, then lists the last 200 non-merge commits with the status of each file they touched. */
export const REPO_HISTORY_COMMAND =
  `cd /repo && echo "@@count $(git rev-list --count HEAD)" && git log --no-merges --no-color --format='${MARK} %h' --name-status -n 200`;

/** Read {@link REPO_HISTORY_COMMAND}'s output; null when it is not that command's output. */
export function parseRepoHistory(output: string): RepoHistory | null {
  const count = /^@@count (\d+)$/m.exec(output);
  if (!count) return null;
  let revertible = 0;
  let counted = true;
  for (const line of output.split('\n')) {
    if (line.startsWith(`${MARK} `)) counted = false;
    // A modified (not added) code file: `git apply -R` of that change leaves the file in place.
    else if (!counted && /^M\t/.test(line) && isCodePath(line.slice(2))) {
      revertible += 1;
      counted = true;
    }
  }
  return { commits: Number(count[1]), revertible };
}

/** Whether the history strategy can find a change to revert: more than one commit, one of which modified code. */
export function historyUsable(history: RepoHistory): boolean {
  return history.commits > 1 && history.revertible > 0;
}

/** Why history is not planned on a repo (for the progress log and the episode records). */
export function historyNote(repo: string, history: RepoHistory): string {
  const why = history.commits <= 1 ? `${history.commits} commit` : `${history.commits} commits, none of the last 200 modifying code`;
  return `history not planned on ${repo} (${why}): its mixed episodes use removal`;
}

/**
 * Probe a repo's history once, in a fresh sandbox of its template (the image holds the history
 * the Injector will see, which may differ from the source the repo was cloned from).
 * @throws EngineError `sandbox-failed` when git does not answer there.
 */
export async function probeRepoHistory(provider: SandboxProvider, template: SandboxTemplate): Promise<RepoHistory> {
  const sandbox = await provider.acquire(template);
  try {
    const result = await sandbox.exec(REPO_HISTORY_COMMAND, { timeoutMs: 60_000 });
    const history = result.exitCode === 0 ? parseRepoHistory(result.output) : null;
    if (!history) throw new EngineError('sandbox-failed', `could not read the git history of ${template.ref}: ${result.output.slice(-300)}`);
    return history;
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}
