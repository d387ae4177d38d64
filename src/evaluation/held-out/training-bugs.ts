import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { listBugDirs, readStoredBug } from '../../corpus/read-stored-bug.js';
import { runPaths } from '../../corpus/run-layout.js';
import { overlapPairs, type ComparedBug, type OverlapPair } from './train-eval-overlap.js';

/**
 * The training bugs of a run as train/eval hygiene compares them, read from disk once each: a bug
 * dir, once complete, does not change, so each evaluation reads only the bug dirs written since
 * the last one (a full re-read at every evaluation grows with the run). Pairs with the held-out
 * set are kept the same way: a new bug's pairs are added, old ones are not recomputed.
 */
export class TrainingBugIndex {
  /** Bug dirs read, by `<dir>/<id>`: the bug, or null for an invalid one (no pair). */
  private readonly seen = new Map<string, ComparedBug | null>();
  private readonly pairs: OverlapPair[] = [];
  /** Bug dirs read from disk so far (what an evaluation costs in reads). */
  bugsRead = 0;

  constructor(private readonly held: readonly ComparedBug[]) {}

  /** Every pair of a valid bug in `dirs` (run dirs; a missing `bugs/` is none yet) with the held-out set, reading only bugs not seen before. */
  async refresh(dirs: readonly string[]): Promise<OverlapPair[]> {
    for (const dir of dirs) {
      const bugs = runPaths(dir).bugs;
      if (!(await stat(bugs).catch(() => null))?.isDirectory()) continue;
      const fresh: ComparedBug[] = [];
      for (const id of await listBugDirs(bugs)) {
        const key = join(dir, id);
        if (this.seen.has(key)) continue;
        const bug = await readStoredBug(runPaths(dir).bugDir(id));
        this.bugsRead += 1;
        // Not complete yet (no validation.json): read again next time.
        if (bug === null) continue;
        const compared = bug.validation.valid ? { id: bug.id, repo: bug.metadata.repo, commit: bug.metadata.commit, bugInject: bug.artifact.bugInject } : null;
        this.seen.set(key, compared);
        if (compared) fresh.push(compared);
      }
      this.pairs.push(...overlapPairs(fresh, this.held));
    }
    return [...this.pairs];
  }
}
