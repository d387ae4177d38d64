import type { AnchorBug } from './anchor-bug.js';
import { anchorSchedule, type StepSlot } from './anchor-schedule.js';
import type { AnchorBugs } from './anchor-bug.js';

/** What planning needs of a run's anchoring: its bugs and `--anchor-ratio`. */
export interface RunAnchors {
  bugs: AnchorBugs;
  ratio: number;
}

/** The key of a slot in {@link stepAnchors}' map. */
export const slotKey = (repo: string, index: number): string => `${repo}#${index}`;

/**
 * The anchor bug of each slot of a step that solves one (see anchorSchedule), keyed by
 * {@link slotKey}; the other slots inject as usual.
 */
export function stepAnchors(anchors: RunAnchors, input: { step: number; seed: number; repos: readonly string[]; episodesPerStep: number }): Map<string, AnchorBug> {
  const slots: StepSlot[] = input.repos.flatMap((repo) => Array.from({ length: input.episodesPerStep }, (_, index) => ({ repo, index })));
  const anchorsPerRepo = new Map([...anchors.bugs].map(([repo, bugs]) => [repo, bugs.length]));
  const scheduled = anchorSchedule({ seed: input.seed, ratio: anchors.ratio, slots, anchorsPerRepo }, input.step);
  return new Map(scheduled.map((slot) => [slotKey(slot.repo, slot.index), anchors.bugs.get(slot.repo)![slot.bug]!]));
}
