import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AheadProvider, reserveSandbox } from '../../../src/sandbox/pool/ahead-provider.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { FakeProvider, template } from '../../helpers/fake-sandbox-provider.js';
import { rejection } from '../../helpers/rejection.js';

/** Lets the provider's queued starts run. */
const tick = (): Promise<void> => sleep(0);

describe('AheadProvider (validation starts the sandboxes its queued runs will ask for)', () => {
  it('starts what was announced, at most depth at a time, and hands each start out once, oldest first', async () => {
    const fake = new FakeProvider();
    const ahead = new AheadProvider(fake, 2);
    const reservations = [1, 2, 3].map(() => ahead.reserve(template()));
    await tick();
    // Three announced, depth 2: two start now (their engine starts in flight), the third waits for a slot.
    expect(fake.started).toHaveLength(2);
    expect(ahead.counts.started).toBe(2);
    fake.settleAll();
    const first = await reservations[0]!.acquire();
    await tick();
    // One handed out: the third announced sandbox starts in its place.
    expect(fake.started).toHaveLength(3);
    fake.settleAll();
    const rest = await Promise.all([reservations[1]!.acquire(), reservations[2]!.acquire()]);
    expect([first, ...rest].map((box) => box.id)).toEqual(['box-1', 'box-2', 'box-3']);
    // Every start was announced and used: nothing left to remove, nothing started beyond the demand.
    expect(ahead.counts).toEqual({ started: 3, served: 3, unused: 0 });
    expect((await rejection(reservations[0]!.acquire())).code).toBe('internal');
  });

  it('removes a start whose demand went away (a cancelled run), and a later announcement starts its own', async () => {
    const fake = new FakeProvider();
    const ahead = new AheadProvider(fake, 3);
    const kept = ahead.reserve(template());
    const dropped = ahead.reserve(template());
    await tick();
    fake.settleAll();
    dropped.release();
    dropped.release();
    await tick();
    expect(fake.started.map((start) => start.sandbox.disposed)).toEqual([0, 1]);
    expect((await kept.acquire()).id).toBe('box-1');
    expect(ahead.counts).toEqual({ started: 2, served: 1, unused: 1 });
    // A released reservation cannot draw a sandbox afterwards, and a later one starts its own.
    expect((await rejection(dropped.acquire())).code).toBe('internal');
    const late = ahead.reserve(template()).acquire();
    await tick();
    fake.settleAll();
    expect((await late).id).toBe('box-3');
  });

  it('waits on dispose for the removal of a start given back while it was still starting', async () => {
    const fake = new FakeProvider();
    const ahead = new AheadProvider(fake, 1);
    ahead.reserve(template()).release();
    await tick();
    let disposed = false;
    const disposing = ahead.dispose().then(() => (disposed = true));
    await tick();
    expect(disposed).toBe(false);
    fake.settleAll();
    await disposing;
    expect(fake.started.map((start) => start.sandbox.disposed)).toEqual([1]);
  });

  it('keeps templates apart, passes plain acquires through, and removes what waits on dispose', async () => {
    const fake = new FakeProvider();
    const ahead = new AheadProvider(fake, 2);
    ahead.reserve(template({ repoId: 'other', ref: 'ssr-other:1' }));
    const mine = ahead.reserve(template());
    const plain = ahead.acquire(template());
    await tick();
    fake.settleAll();
    expect(fake.started.map((start) => start.template.ref)).toEqual(['ssr-other:1', 'ssr-pyledger:abc', 'ssr-pyledger:abc']);
    expect((await plain).id).toBe('box-3');
    expect((await mine.acquire()).id).toBe('box-2');
    await ahead.dispose();
    // The other template's start was never drawn: removed; the handed-out ones are their holders'.
    expect(fake.started.map((start) => start.sandbox.disposed)).toEqual([1, 0, 0]);
    expect(fake.innerDisposed).toBe(1);
    expect(ahead.counts.unused).toBe(1);
  });

  it('gives a failed start to the reservation that draws it, not to a later one', async () => {
    const fake = new FakeProvider();
    const ahead = new AheadProvider(fake, 1);
    const failing = ahead.reserve(template());
    await tick();
    const engineDown = new EngineError('docker-unavailable', 'connect ENOENT /var/run/docker.sock', { retryable: true });
    fake.started[0]!.fail(engineDown);
    expect(await failing.acquire().then(() => null, (error: unknown) => error)).toBe(engineDown);
    const next = ahead.reserve(template()).acquire();
    await tick();
    fake.settleAll();
    expect((await next).id).toBe('box-2');
  });

  it('is a plain acquire on a provider that starts nothing ahead', async () => {
    const fake = new FakeProvider();
    const reservation = reserveSandbox(fake, template());
    await tick();
    expect(fake.started).toHaveLength(0);
    const box = reservation.acquire();
    await tick();
    fake.settleAll();
    expect((await box).id).toBe('box-1');
  });
});
