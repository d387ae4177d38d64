import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { SandboxTemplate } from '../../sandbox/sandbox.js';
import type { AnchorBugs } from './anchor-bug.js';
import type { RunAnchors } from './step-anchors.js';

/** A run's anchoring once its templates are ready: the bugs, the ratio, and each bug's template. */
export interface AnchorRun extends RunAnchors {
  /** By instance id: the template of the bug's own commit (a mined bug's is its fix commit). */
  templates: ReadonlyMap<string, SandboxTemplate>;
}

/**
 * The template of every anchor bug: the run repo's own where the bug is at the repo's commit,
 * else one prepared at the bug's commit (each distinct commit once), before any episode.
 */
export async function prepareAnchorTemplates(
  bugs: AnchorBugs,
  runTemplates: ReadonlyMap<string, { repo: ResolvedRepo; template: SandboxTemplate }>,
  prepare: (repo: ResolvedRepo) => Promise<SandboxTemplate>,
): Promise<Map<string, SandboxTemplate>> {
  const byCommit = new Map<string, SandboxTemplate>();
  const templates = new Map<string, SandboxTemplate>();
  for (const bug of [...bugs.values()].flat()) {
    const run = runTemplates.get(bug.repo.id);
    const key = `${bug.repo.id}@${bug.repo.commit}:${JSON.stringify(bug.repo.image)}`;
    let template = run && run.repo.commit === bug.repo.commit && bug.repo.image === run.repo.image ? run.template : byCommit.get(key);
    if (!template) byCommit.set(key, (template = await prepare(bug.repo)));
    templates.set(bug.instanceId, template);
  }
  return templates;
}
