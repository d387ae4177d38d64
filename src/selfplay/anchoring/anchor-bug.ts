import type { BugArtifact } from '../../artifact/bug-artifact.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { StoredValidation } from '../../corpus/stored-validation.js';

/**
 * A real bug of the anchor set, as `ssr eval`'s loaders read it (an eval instance is one): its
 * repo at its own commit, its five files, and its stored validation when it comes from a bug dir.
 */
export interface AnchorBug {
  instanceId: string;
  /** The repo at the bug's original commit O (a mined bug's fix commit). */
  repo: ResolvedRepo;
  /** `mined` for a mined bug, else the source's strategy or operators. */
  kind: string;
  artifact: BugArtifact;
  /** A bug dir's validation; absent for a JSONL line, validated when first solved. */
  validation?: StoredValidation;
  /** A mined bug's fix commit subject. */
  subject?: string;
}

/** The anchor bugs of a run, per repo id, each repo's in the order the run takes them (seeded). */
export type AnchorBugs = ReadonlyMap<string, readonly AnchorBug[]>;
