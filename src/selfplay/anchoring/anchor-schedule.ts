import { seededRng } from '../../util/seeded-rng.js';

/** One order-1 slot of a step: the `index`-th episode of `repo`. */
export interface StepSlot {
  repo: string;
  index: number;
}

export interface ScheduleInput {
  /** The run seed. */
  seed: number;
  ratio: number;
  /** The order-1 slots of every step, in plan order (the same each step). */
  slots: readonly StepSlot[];
  /** Anchor bugs per repo, in a fixed order (a repo without any has no anchor slot). */
  anchorsPerRepo: ReadonlyMap<string, number>;
}

/** A slot of a step given to an anchor bug: the bug is the repo's `bug`-th (in the run's seeded order). */
export interface AnchorSlot extends StepSlot {
  bug: number;
}

// Rounding the running total, not each step's share: with p·N = 0.5 one step in two gets an
// anchor, and over s steps the total is within ½ of p·N·s. The epsilon keeps 0.1·30 = 3 from
// rounding as 2.9999…
const cumulative = (ratio: number, slots: number, steps: number): number => Math.floor(ratio * slots * steps + 0.5 + 1e-9);

/** Anchor episodes wanted in step `step` (1-based): the rounded running total's growth. */
export function anchorsInStep(ratio: number, slots: number, step: number): number {
  return cumulative(ratio, slots, step) - cumulative(ratio, slots, step - 1);
}

/**
 * The anchor slots of one step, a pure function of (seed, step, ratio, slots, anchors per repo),
 * so a resumed run plans exactly the same ones. Each step gets its share of anchors (see
 * anchorsInStep), capped at the slots of repos that have anchor bugs; which slots is a seeded
 * draw per step; each repo's anchors are taken in turn across steps (every one before any
 * repeats), the turn counted by replaying the earlier steps.
 */
export function anchorSchedule(input: ScheduleInput, step: number): AnchorSlot[] {
  const taken = new Map<string, number>();
  let current: AnchorSlot[] = [];
  for (let s = 1; s <= step; s++) {
    current = slotsOfStep(input, s).map((slot) => {
      const n = taken.get(slot.repo) ?? 0;
      taken.set(slot.repo, n + 1);
      return { ...slot, bug: n % input.anchorsPerRepo.get(slot.repo)! };
    });
  }
  return current;
}

function slotsOfStep(input: ScheduleInput, step: number): StepSlot[] {
  const eligible = input.slots.filter((slot) => (input.anchorsPerRepo.get(slot.repo) ?? 0) > 0);
  const wanted = Math.min(eligible.length, anchorsInStep(input.ratio, input.slots.length, step));
  if (wanted === 0) return [];
  const chosen = seededRng(`${input.seed}:anchor-slots:${step}`).shuffle(eligible).slice(0, wanted);
  // Back in plan order: the bug turn of a repo follows the slots' order, not the draw's.
  return input.slots.filter((slot) => chosen.includes(slot));
}
