import { Placement } from '../placement.js';

/** The scheduler's own cost on one simulated fleet. */
export interface PlacementFigures {
  hosts: number;
  slots: number;
  episodes: number;
  /** Mean µs of the Placement's own work per placement: place() and the release() that serves a waiter. */
  usPerPlacement: number;
  /** Placements that had to wait for a slot. */
  waited: number;
}

/** A small seeded RNG (mulberry32), so every run simulates the same fleet. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Place `episodes` queued episodes on `hosts` simulated engines (1–16 slots each, seeded): all are
 * asked for at once, the ones beyond the fleet's slots wait, and each finished episode (in a
 * seeded random order) frees its slot for the next waiter. Only the Placement's own calls are
 * timed (place, and release, which serves the next waiter), not the promises that carry a slot
 * to its waiter nor any sandbox start: the figure is the scheduler's own cost per placement.
 */
export async function benchPlacement(hosts: number, episodes: number, seed = 1): Promise<PlacementFigures> {
  const random = rng(seed);
  const engines = Array.from({ length: hosts }, (_, i) => ({ id: `host-${i}`, slots: 1 + Math.floor(random() * 16) }));
  const placement = new Placement(engines);
  const running: string[] = [];
  let spentNs = 0n;
  const timed = <T>(work: () => T): T => {
    const started = process.hrtime.bigint();
    const result = work();
    spentNs += process.hrtime.bigint() - started;
    return result;
  };
  const pending = Array.from({ length: episodes }, () => timed(() => placement.place()).then((id) => void running.push(id)));
  await Promise.resolve();
  const waited = episodes - running.length;
  for (let finished = 0; finished < episodes; finished++) {
    if (running.length === 0) await Promise.resolve();
    // A random running episode finishes; its slot goes to the first waiter (inside release).
    const at = Math.floor(random() * running.length);
    const [id] = running.splice(at, 1);
    timed(() => placement.release(id!));
    if (placement.queued > 0 || running.length === 0) await Promise.resolve();
  }
  await Promise.all(pending);
  return { hosts, slots: engines.reduce((sum, engine) => sum + engine.slots, 0), episodes, usPerPlacement: Number(spentNs) / 1000 / episodes, waited };
}
