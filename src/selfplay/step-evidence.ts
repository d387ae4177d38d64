import { readTrajectory, type Trajectory } from '../agent/trajectory.js';
import type { EpisodeRecord } from '../corpus/episode-record.js';
import { readStoredBug } from '../corpus/read-stored-bug.js';
import type { RunStore } from '../corpus/run-store.js';
import type { SolveAttempt } from '../corpus/solves-record.js';
import { bugShape, type BugShape } from './bug-shape.js';
import { attemptNumber, injectorRunId, isAttemptOf } from './episode-ids.js';

/** What the store holds about one episode: what samples and step metrics are made from. */
export interface EpisodeEvidence {
  record: EpisodeRecord;
  /** The repo's original commit (the Injector group is one repo at one commit). */
  commit: string;
  /** The Injector's trajectory (order-1 episodes that injected); null otherwise or when unreadable. */
  injector: Trajectory | null;
  /** The episode's attempts from the bug's solves.json, in attempt order, with their trajectories. */
  attempts: Array<{ attempt: SolveAttempt; trajectory: Trajectory | null }>;
  /** Shape of a valid order-1 bug; null otherwise. */
  bug: BugShape | null;
}

/** A trajectory, or null when there is none to read (an attempt discarded before its agent started). */
async function maybeTrajectory(path: string): Promise<Trajectory | null> {
  return readTrajectory(path).catch(() => null);
}

/**
 * Read back everything about a recorded episode. It is read from the store rather than kept in
 * memory so that a step finished by a resumed process sees the episodes of the killed one too.
 * A discarded episode carries no evidence beyond its record.
 */
export async function collectEvidence(store: RunStore, record: EpisodeRecord, commit: string): Promise<EpisodeEvidence> {
  const evidence: EpisodeEvidence = { record, commit, injector: null, attempts: [], bug: null };
  if (record.status === 'discarded') return evidence;
  if (record.order === 1) evidence.injector = await maybeTrajectory(store.trajectoryPath(injectorRunId(record.id)));
  if (record.bugId === null) return evidence;
  const bug = await readStoredBug(store.paths.bugDir(record.bugId));
  const mine = (bug?.solves?.attempts ?? []).filter((attempt) => isAttemptOf(attempt.id, record.id));
  mine.sort((a, b) => attemptNumber(a.id) - attemptNumber(b.id));
  evidence.attempts = await Promise.all(mine.map(async (attempt) => ({ attempt, trajectory: await maybeTrajectory(store.trajectoryPath(attempt.id)) })));
  if (record.order === 1 && record.valid === true && record.anchor !== true && bug) evidence.bug = bugShape(bug.artifact.bugInject, evidence.injector);
  return evidence;
}
