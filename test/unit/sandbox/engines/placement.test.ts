import { describe, expect, it } from 'vitest';
import { Placement } from '../../../../src/sandbox/engines/placement.js';

describe('Placement', () => {
  it('places on the least-loaded engine by share of slots in use', async () => {
    const placement = new Placement([{ id: 'small', slots: 1 }, { id: 'big', slots: 4 }]);
    const placed = [];
    for (let i = 0; i < 5; i++) placed.push(await placement.place());
    // small 0/1 vs big 0/4: equal, first listed wins; then big until its share passes small's (1/1).
    expect(placed).toEqual(['small', 'big', 'big', 'big', 'big']);
    expect(placement.loads().map((load) => load.inUse)).toEqual([1, 4]);
  });

  it('makes the caller wait when every slot is taken, first come first placed, and serves it on release', async () => {
    const placement = new Placement([{ id: 'a', slots: 1 }]);
    expect(await placement.place()).toBe('a');
    const order: string[] = [];
    const first = placement.place().then((id) => order.push(`first:${id}`));
    const second = placement.place().then((id) => order.push(`second:${id}`));
    expect(placement.queued).toBe(2);
    placement.release('a');
    await first;
    expect(order).toEqual(['first:a']);
    placement.release('a');
    await second;
    expect(order).toEqual(['first:a', 'second:a']);
  });

  it('places nothing on an engine marked down, and uses it again once it is up', async () => {
    const placement = new Placement([{ id: 'a', slots: 2 }, { id: 'b', slots: 2 }]);
    placement.markDown('b');
    expect([await placement.place(), await placement.place()]).toEqual(['a', 'a']);
    const waiting = placement.place();
    placement.markUp('b');
    expect(await waiting).toBe('b');
  });

  it('drops a waiter whose signal aborts, without losing the slot for the next', async () => {
    const placement = new Placement([{ id: 'a', slots: 1 }]);
    await placement.place();
    const controller = new AbortController();
    const gaveUp = placement.place(controller.signal);
    controller.abort(new Error('run stopping'));
    await expect(gaveUp).rejects.toThrow('run stopping');
    const next = placement.place();
    placement.release('a');
    expect(await next).toBe('a');
    expect(placement.queued).toBe(0);
  });

  it('always picks an engine of least load among those up with a free slot, through any mix of places, releases, downs and ups', async () => {
    let seed = 42;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const engines = Array.from({ length: 40 }, (_, i) => ({ id: `e${i}`, slots: 1 + Math.floor(random() * 6) }));
    const placement = new Placement(engines);
    const held: string[] = [];
    for (let step = 0; step < 3000; step++) {
      const roll = random();
      const loads = placement.loads();
      const open = loads.filter((load) => load.up && load.inUse < load.slots);
      if (roll < 0.5 && open.length > 0) {
        const least = Math.min(...open.map((load) => load.inUse / load.slots));
        const id = await placement.place();
        const chosen = loads.find((load) => load.id === id)!;
        expect(chosen.up && chosen.inUse < chosen.slots, id).toBe(true);
        expect(chosen.inUse / chosen.slots).toBeCloseTo(least, 12);
        held.push(id);
      } else if (roll < 0.9 && held.length > 0) {
        placement.release(held.splice(Math.floor(random() * held.length), 1)[0]!);
      } else {
        const id = engines[Math.floor(random() * engines.length)]!.id;
        if (random() < 0.5) placement.markDown(id);
        else placement.markUp(id);
      }
    }
    expect(placement.loads().reduce((sum, load) => sum + load.inUse, 0)).toBe(held.length);
  });

  it('refuses bad engines and a release without a placement', () => {
    expect(() => new Placement([])).toThrow(/at least one engine/);
    expect(() => new Placement([{ id: 'a', slots: 0 }])).toThrow(/engine a: slots must be a positive integer/);
    expect(() => new Placement([{ id: 'a', slots: 1 }, { id: 'a', slots: 1 }])).toThrow(/listed twice/);
    expect(() => new Placement([{ id: 'a', slots: 1 }]).release('a')).toThrow(/released more slots/);
  });
});
