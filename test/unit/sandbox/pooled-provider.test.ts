import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PooledProvider } from '../../../src/sandbox/pool/pooled-provider.js';
import { releaseProvider } from '../../../src/sandbox/pool/release-provider.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { FakeProvider, template, type fakeSandbox } from '../../helpers/fake-sandbox-provider.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { rejection } from '../../helpers/rejection.js';

/** Lets the pool's deferred starts run. */
const tick = (): Promise<void> => sleep(0);

describe('PooledProvider (--warm N)', () => {
  it('starts N ahead on the first acquire, hands each sandbox out once and starts one replacement per acquire', async () => {
    const fake = new FakeProvider();
    const pool = new PooledProvider(fake, 2);
    const first = pool.acquire(template());
    await tick();
    expect(fake.started).toHaveLength(3); // the two pre-started plus the first one's replacement
    fake.settleAll();
    const handed = [await first];
    for (let i = 0; i < 5; i++) {
      const next = pool.acquire(template());
      await tick();
      fake.settleAll();
      handed.push(await next);
    }
    expect(handed.map((box) => box.id)).toEqual(['box-1', 'box-2', 'box-3', 'box-4', 'box-5', 'box-6']);
    expect(new Set(handed).size).toBe(handed.length);
    // Bounded: never more than N waiting, however many were handed out.
    expect(fake.started.length - handed.length).toBe(2);
  });

  it('hands out the oldest starts even before they finish, keeping N more starting', async () => {
    const fake = new FakeProvider();
    const pool = new PooledProvider(fake, 3);
    const taken = [pool.acquire(template()), pool.acquire(template())];
    await tick();
    expect(fake.started).toHaveLength(5); // 3 ahead + 2 replacements: two handed out, three waiting
    fake.settleAll();
    expect((await Promise.all(taken)).map((box) => box.id)).toEqual(['box-1', 'box-2']);
  });

  it('gives each template its own pool', async () => {
    const fake = new FakeProvider();
    const pool = new PooledProvider(fake, 1);
    const a = pool.acquire(template());
    const b = pool.acquire(template({ ref: 'ssr-pyledger:def' }));
    const c = pool.acquire(template({ repoId: 'other', ref: 'ssr-other:1' }));
    const d = pool.acquire(template({ limits: { memoryMb: 512, cpus: 1, pids: 256 } }));
    await tick();
    fake.settleAll();
    const boxes = await Promise.all([a, b, c, d]);
    const startedFrom = (box: Sandbox): string => {
      const { ref, limits } = fake.started.find((start) => start.sandbox === box)!.template;
      return `${ref} ${limits.memoryMb}MB`;
    };
    expect(boxes.map(startedFrom)).toEqual(['ssr-pyledger:abc 2048MB', 'ssr-pyledger:def 2048MB', 'ssr-other:1 2048MB', 'ssr-pyledger:abc 512MB']);
    expect(fake.started).toHaveLength(8); // per template: one handed out, one waiting
  });

  it('disposes every sandbox still waiting, those still starting too, and refuses acquires afterwards', async () => {
    const fake = new FakeProvider();
    const pool = new PooledProvider(fake, 2);
    const sandbox = pool.acquire(template());
    const other = pool.acquire(template({ repoId: 'other', ref: 'ssr-other:1' }));
    await tick();
    for (const start of fake.started.slice(0, 4)) start.settle(); // the rest are still starting
    const handed = await Promise.all([sandbox, other]);
    const disposing = Promise.all([pool.dispose(), pool.dispose()]);
    await tick();
    for (const start of fake.started.slice(4)) start.settle();
    await disposing;
    const waiting = fake.started.map((start) => start.sandbox).filter((box) => !handed.includes(box));
    expect(waiting).toHaveLength(4);
    expect(waiting.map((box) => box.disposed)).toEqual([1, 1, 1, 1]);
    // Handed-out sandboxes are their holders' to dispose.
    expect(handed.map((box) => (box as ReturnType<typeof fakeSandbox>).disposed)).toEqual([0, 0]);
    expect(fake.innerDisposed).toBeGreaterThanOrEqual(1);
    expect((await rejection(pool.acquire(template()))).code).toBe('sandbox-failed');
    expect(fake.started).toHaveLength(6);
  });

  it('surfaces a failed pre-start on the acquire that draws it, and retries it with the replacement', async () => {
    const fake = new FakeProvider();
    const pool = new PooledProvider(fake, 1);
    const failing = pool.acquire(template());
    await tick();
    const engineDown = new EngineError('docker-unavailable', 'connect ENOENT /var/run/docker.sock', { retryable: true });
    fake.started[0]!.fail(engineDown);
    expect(await failing.then(() => null, (error: unknown) => error)).toBe(engineDown);
    // The failure was not swallowed into a silent restart: exactly one replacement, already started.
    expect(fake.started).toHaveLength(2);
    const next = pool.acquire(template());
    await tick();
    fake.settleAll();
    expect((await next).id).toBe('box-2');
  });

  it('leaves no unhandled rejection when a pre-start fails and is never drawn', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const fake = new FakeProvider();
      const pool = new PooledProvider(fake, 2);
      const first = pool.acquire(template());
      await tick();
      fake.started[0]!.settle();
      fake.started[1]!.fail(new Error('start failed'));
      fake.started[2]!.settle();
      await first;
      await sleep(10);
      await pool.dispose();
      expect(unhandled).toEqual([]);
      expect(fake.started[2]!.sandbox.disposed).toBe(1);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses --warm %s', (warm) => {
    expect(() => new PooledProvider(new FakeProvider(), warm)).toThrow(/--warm: expected a positive integer/);
  });

  it('refuses a template of another backend without starting anything', async () => {
    const fake = new FakeProvider();
    const pool = new PooledProvider(fake, 2);
    expect((await rejection(pool.acquire(template({ backend: 'bwrap' })))).code).toBe('usage');
    expect(fake.started).toHaveLength(0);
  });

  it('tries to remove every waiting sandbox when one removal fails, then throws that failure; releaseProvider says it and does not throw', async () => {
    const fake = new FakeProvider();
    const pool = new PooledProvider(fake, 3);
    const first = pool.acquire(template());
    await tick();
    fake.settleAll();
    await first;
    const gone = new EngineError('docker-unavailable', 'dispose sandbox box-2: connect ENOENT', { retryable: true });
    fake.started[1]!.sandbox.dispose = () => Promise.reject(gone);
    const warnings: string[] = [];
    await releaseProvider(pool, (line) => warnings.push(line));
    expect(warnings).toEqual([`could not remove the sandboxes started ahead (--warm): ${gone.message}; the next run removes them`]);
    expect([2, 3].map((i) => fake.started[i]!.sandbox.disposed)).toEqual([1, 1]);
    // Strict at the pool itself: the failure is not swallowed there.
    const again = new PooledProvider(fake, 1);
    const box = again.acquire(template({ ref: 'other' }));
    await tick();
    fake.settleAll();
    await box;
    fake.started.at(-1)!.sandbox.dispose = () => Promise.reject(gone);
    expect(await again.dispose().then(() => null, (error: unknown) => error)).toBe(gone);
  });
});
