import { afterEach, describe, expect, it } from 'vitest';
import { parseEngineAddress } from '../../../src/sandbox/engines/engine-address.js';
import { EngineFleet } from '../../../src/sandbox/engines/engine-fleet.js';
import { EngineHealth } from '../../../src/selfplay/engine-health.js';
import { LeaseHealth } from '../../../src/selfplay/lease-health.js';
import { fakeEngine, type FakeEngine } from '../../helpers/fake-engine.js';

describe('LeaseHealth', () => {
  const engines: FakeEngine[] = [];
  let fleet: EngineFleet | undefined;

  afterEach(async () => {
    await fleet?.dispose();
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });

  async function twoEngines(): Promise<{ fleet: EngineFleet; run: EngineHealth; b: FakeEngine; nameB: string }> {
    const a = await fakeEngine();
    const b = await fakeEngine();
    engines.push(a, b);
    fleet = await EngineFleet.connect([parseEngineAddress(a.url), parseEngineAddress(b.url)], { slotsPerHost: 1, retryMs: 60_000 });
    const run = new EngineHealth({ backend: 'docker', probe: async () => ({ ok: true, reason: 'per engine' }) });
    return { fleet, run, b, nameB: parseEngineAddress(b.url).name };
  }

  it('an engine that went away stops only the episodes on it: the engine is marked down, the run goes on', async () => {
    const { fleet, run, nameB } = await twoEngines();
    await fleet.lease();
    const lease = await fleet.lease();
    expect(lease.engine).toBe(nameB);
    const health = new LeaseHealth(run, fleet, lease);
    await health.reportFailure('docker-unavailable', 'exec: the Docker engine is not reachable (ECONNRESET)');
    expect(health.engineLost).toBe(true);
    expect(health.signal.aborted).toBe(true);
    expect(health.stopped).toMatch(new RegExp(`${nameB} was lost: exec: the Docker engine is not reachable`));
    expect(run.stopped).toBeNull();
    expect(fleet.upCount).toBe(1);
  });

  it('a failure while the engine still answers counts towards the run\'s failures in a row, not against the engine', async () => {
    const { fleet, run } = await twoEngines();
    const health = new LeaseHealth(run, fleet, await fleet.lease());
    for (let i = 0; i < 3; i++) await health.reportFailure('sandbox-failed', 'create sandbox: conflict');
    expect(fleet.upCount).toBe(2);
    expect(run.stopped).toMatch(/3 infrastructure failures in a row/);
    expect(health.engineLost).toBe(false);
  });

  it('an engine that no longer answers a ping is lost too; with no engine left the run stops', async () => {
    const { fleet, run, b, nameB } = await twoEngines();
    const onA = new LeaseHealth(run, fleet, await fleet.lease());
    const onB = new LeaseHealth(run, fleet, await fleet.lease());
    b.state.answering = false;
    await onB.reportFailure('sandbox-failed', 'exec: socket hang up');
    expect(fleet.engine(nameB).down).toMatch(/does not answer a ping/);
    expect(run.stopped).toBeNull();
    await onA.reportFailure('docker-unavailable', 'the Docker engine is not reachable (ECONNREFUSED)');
    expect(run.stopped).toMatch(/every Docker engine is down/);
  });
});
