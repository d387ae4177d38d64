import { bugRegions, regionsMeet, type LineRange } from './bug-regions.js';

/** A bug as train/eval hygiene compares it: repo, original commit and bug patch. */
export interface ComparedBug {
  /** A training bug's id, or an eval instance's instance_id. */
  id: string;
  repo: string;
  commit: string;
  bugInject: string;
}

/** A training bug and a held-out instance of the same repo and commit whose bug patches change the same lines. */
export interface OverlapPair {
  trainBug: string;
  instanceId: string;
  repo: string;
  commit: string;
  file: string;
  lines: LineRange;
}

/** Regions of a bug, or null for a patch that does not parse (it cannot be compared: never a crash here). */
function regionsOf(bug: ComparedBug): ReturnType<typeof bugRegions> | null {
  try {
    return bugRegions(bug.bugInject);
  } catch {
    return null;
  }
}

/**
 * Every (training bug, eval instance) pair of the same repo and original commit whose bug patches
 * change overlapping lines of the same file: the Solver may have been trained on the very fix the
 * held-out set asks for. Pure.
 */
export function overlapPairs(train: readonly ComparedBug[], held: readonly ComparedBug[]): OverlapPair[] {
  const pairs: OverlapPair[] = [];
  const heldRegions = held.map((bug) => ({ bug, regions: regionsOf(bug) }));
  for (const trainBug of train) {
    const regions = regionsOf(trainBug);
    if (regions === null) continue;
    for (const { bug, regions: other } of heldRegions) {
      if (other === null || bug.repo !== trainBug.repo || bug.commit !== trainBug.commit) continue;
      const met = regionsMeet(regions, other);
      if (met) pairs.push({ trainBug: trainBug.id, instanceId: bug.id, repo: bug.repo, commit: bug.commit, ...met });
    }
  }
  return pairs;
}

/** Held-out instances at the same repo and commit as a repo the run injects into: any bug made there may land in their lines. Pure. */
export function sharedCommits(runRepos: readonly { id: string; commit: string }[], held: readonly ComparedBug[]): ComparedBug[] {
  return held.filter((bug) => runRepos.some((repo) => repo.id === bug.repo && repo.commit === bug.commit));
}

/** One line per pair (at most `max`, then a count), for the start-up warning and the refusal. */
export function describePairs(pairs: readonly OverlapPair[], max = 10): string {
  const lines = pairs.slice(0, max).map((p) => `  ${p.trainBug} ↔ ${p.instanceId} (${p.repo}@${p.commit.slice(0, 12)} ${p.file}:${p.lines[0]}-${p.lines[1]})`);
  if (pairs.length > max) lines.push(`  … and ${pairs.length - max} more`);
  return lines.join('\n');
}
