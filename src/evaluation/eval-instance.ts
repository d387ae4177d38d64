import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { StoredValidation } from '../corpus/stored-validation.js';

/** One held-out bug, ready to solve: its repo at its original commit, its artifact, and what is known of its oracle. */
export interface EvalInstance {
  /** `<repo id>__<bug id>` (as `ssr export` names it), or the instance_id of a JSONL line. */
  instanceId: string;
  /** The repo at the instance's original commit O (`commit` is O). */
  repo: ResolvedRepo;
  /** `mined` for a real bug, else the operators or strategy of a synthetic one (`external` when unknown). */
  kind: string;
  artifact: BugArtifact;
  /**
   * The grading oracle of a bug dir's stored validation (made by the same validator at the same
   * commit); absent for a JSONL line, which is validated first, as `ssr grade` does.
   */
  oracle?: { originalPassing: string[]; originalGuarded: boolean; toleratedTampering?: string[] };
  /** A bug dir's stored validation whole (self-play anchoring copies the bug into its run dir with it). */
  validation?: StoredValidation;
  /** A mined bug's fix commit subject (what the Injector is told a real fix was). */
  subject?: string;
  /** The Docker image a JSONL line names (`image` as a string), which must already exist. */
  userImage?: string;
}
