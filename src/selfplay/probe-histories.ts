import { historyNote, historyUsable, probeRepoHistory } from '../roles/repo-history.js';
import type { SandboxProvider } from '../sandbox/sandbox.js';
import type { RunRepo } from './selfplay-context.js';

/**
 * Probe each repo's git history once before any episode (one short `git log` in a sandbox per
 * repo) and attach it, so `mixed` plans history only where there is something to revert; each
 * repo left without history is named in the log.
 * @throws EngineError when a sandbox fails (the infrastructure, never a verdict on the repo).
 */
export async function probeHistories(repos: ReadonlyMap<string, RunRepo>, provider: SandboxProvider, log: (line: string) => void): Promise<Map<string, RunRepo>> {
  const probed = new Map<string, RunRepo>();
  for (const [id, run] of repos) {
    const history = await probeRepoHistory(provider, run.template);
    if (!historyUsable(history)) log(historyNote(id, history));
    probed.set(id, { ...run, history });
  }
  return probed;
}
