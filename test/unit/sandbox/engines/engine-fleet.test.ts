import type { Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseEngineAddress } from '../../../../src/sandbox/engines/engine-address.js';
import { EngineFleet } from '../../../../src/sandbox/engines/engine-fleet.js';
import { reserveSandbox } from '../../../../src/sandbox/pool/ahead-provider.js';
import { template } from '../../../helpers/fake-sandbox-provider.js';
import { fakeEngine } from '../../../helpers/fake-engine.js';

describe('EngineFleet', () => {
  const servers: Server[] = [];
  let fleet: EngineFleet | undefined;

  afterEach(async () => {
    await fleet?.dispose();
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('gives each engine its slots (from CPUs and memory, or --slots-per-host) and places leases least-loaded first', async () => {
    const a = await fakeEngine();
    const b = await fakeEngine();
    servers.push(a.server, b.server);
    fleet = await EngineFleet.connect([parseEngineAddress(a.url), parseEngineAddress(b.url)]);
    expect(fleet.engines.map((engine) => engine.slots)).toEqual([4, 4]);
    const leases = [await fleet.lease(), await fleet.lease()];
    expect(leases.map((lease) => lease.engine)).toEqual([parseEngineAddress(a.url).name, parseEngineAddress(b.url).name]);
    await fleet.dispose();
    fleet = await EngineFleet.connect([parseEngineAddress(a.url)], { slotsPerHost: 1 });
    expect(fleet.engines[0]!.slots).toBe(1);
  });

  it('refuses to start when any engine is unreachable, naming each', async () => {
    const a = await fakeEngine();
    servers.push(a.server);
    const connect = EngineFleet.connect([parseEngineAddress(a.url), parseEngineAddress('unix:///nonexistent-ssr.sock'), parseEngineAddress('tcp://127.0.0.1:1')]);
    await expect(connect).rejects.toThrow(/unix:\/\/\/nonexistent-ssr\.sock: no Docker engine answers[^]*\ntcp:\/\/127\.0\.0\.1:1: no Docker engine is reachable/);
  });

  it('marks a lost engine down (its leases see `lost`, nothing new goes there), retries it with backoff and takes it back once it answers', async () => {
    const a = await fakeEngine();
    const b = await fakeEngine();
    servers.push(a.server, b.server);
    const lines: string[] = [];
    fleet = await EngineFleet.connect([parseEngineAddress(a.url), parseEngineAddress(b.url)], { slotsPerHost: 1, retryMs: 50, log: (line) => lines.push(line) });
    const nameB = parseEngineAddress(b.url).name;
    await fleet.lease();
    const onB = await fleet.lease();
    expect(onB.engine).toBe(nameB);
    b.state.answering = false;
    fleet.markDown(nameB, 'it does not answer a ping');
    expect(onB.lost.aborted).toBe(true);
    expect(fleet.upCount).toBe(1);
    onB.release();
    // B is down and A full: a new lease waits, through failed retries of B (50, 100, 200 ms ...).
    let placed: string | undefined;
    const waiting = fleet.lease().then((lease) => (placed = lease.engine));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(placed).toBeUndefined();
    b.state.answering = true;
    await waiting;
    expect(placed).toBe(nameB);
    expect(fleet.engine(nameB).lost.signal.aborted).toBe(false);
    expect(lines.join('\n')).toMatch(new RegExp(`${nameB} is down \\(it does not answer a ping\\)[^]*${nameB} is back up`));
  });

  it("starts a sandbox an episode's validation announces on the lease's engine before the run asks for it (AheadProvider per engine)", async () => {
    const a = await fakeEngine();
    servers.push(a.server);
    fleet = await EngineFleet.connect([parseEngineAddress(a.url)], { slotsPerHost: 2 });
    const lease = await fleet.lease();
    const before = a.requests.length;
    const reservation = reserveSandbox(lease.provider, template({ backend: 'docker' }));
    // Nothing has acquired yet: the engine hears of the sandbox (its orphan sweep, then its create) only because it starts ahead.
    await vi.waitFor(() => expect(a.requests.slice(before).some((request) => request.includes('/containers/'))).toBe(true), { timeout: 10_000, interval: 10 });
    reservation.release();
    lease.release();
  });
});
