import { describe, expect, it } from 'vitest';
import { StepPipeline } from '../../../src/training/step-pipeline.js';

/** A finish the test resolves by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 10));
  return done;
};

describe('StepPipeline', () => {
  it.each([
    [0, [false, false, false]],
    [1, [true, false, false]],
    [2, [true, true, false]],
  ])('max staleness %i: with step 1 training, steps 2..4 may sample: %j', async (k, open) => {
    const pipeline = new StepPipeline(k);
    const train = deferred();
    pipeline.enqueue(1, () => train.promise);
    expect([await settled(pipeline.gate(2)), await settled(pipeline.gate(3)), await settled(pipeline.gate(4))]).toEqual(open);
    train.resolve();
    await pipeline.drain();
    expect(await settled(pipeline.gate(4))).toBe(true);
  });

  it('runs finishes one after another, in step order', async () => {
    const pipeline = new StepPipeline(1);
    const order: string[] = [];
    const first = deferred();
    pipeline.enqueue(1, async () => {
      order.push('1 start');
      await first.promise;
      order.push('1 end');
    });
    pipeline.enqueue(2, async () => void order.push('2'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['1 start']);
    first.resolve();
    await pipeline.drain();
    expect(order).toEqual(['1 start', '1 end', '2']);
  });

  it('reports a failed finish once, skips the later ones and throws it from gate and drain', async () => {
    const failures: unknown[] = [];
    const pipeline = new StepPipeline(0, (error) => failures.push(error));
    const ran: number[] = [];
    pipeline.enqueue(1, async () => {
      throw new Error('trainer refused');
    });
    pipeline.enqueue(2, async () => void ran.push(2));
    await expect(pipeline.gate(2)).rejects.toThrow('trainer refused');
    await expect(pipeline.drain()).rejects.toThrow('trainer refused');
    expect(ran).toEqual([]);
    expect(failures).toHaveLength(1);
  });

  it('lets a step whose predecessors were finished by an earlier run sample at once', async () => {
    await expect(new StepPipeline(0).gate(5)).resolves.toBeUndefined();
  });
});
