import { describe, expect, it } from 'vitest';
import { EngineHealth } from '../../../src/selfplay/engine-health.js';

const answering = async () => ({ ok: true, reason: 'Docker engine 20.10' });
const gone = async () => ({ ok: false, reason: 'connect ECONNREFUSED /var/run/docker.sock' });

describe('EngineHealth', () => {
  it('stops at once on docker-unavailable, and aborts its signal', async () => {
    const health = new EngineHealth({ backend: 'docker', probe: answering });
    await health.reportFailure('docker-unavailable', 'create sandbox: the Docker engine is not reachable (ECONNREFUSED)');
    expect(health.stopped).toMatch(/^the Docker engine is unreachable \(create sandbox/);
    expect(health.signal.aborted).toBe(true);
  });

  it('probes the engine after any failure and stops when it does not answer', async () => {
    const health = new EngineHealth({ backend: 'docker', probe: gone });
    await health.reportFailure('sandbox-failed', 'exec failed');
    expect(health.stopped).toBe('the Docker engine is unreachable (connect ECONNREFUSED /var/run/docker.sock)');
  });

  it.each([
    ['three failures in a row stop it', ['fail', 'fail', 'fail'], true],
    ['a success in between resets the count', ['fail', 'fail', 'ok', 'fail', 'fail'], false],
  ])('%s', async (_name, events, stops) => {
    const health = new EngineHealth({ backend: 'bwrap', maxConsecutiveFailures: 3 });
    for (const event of events) {
      if (event === 'ok') health.reportSuccess();
      else await health.reportFailure(undefined, 'bwrap: cannot create namespace');
    }
    expect(health.stopped !== null).toBe(stops);
    if (stops) expect(health.stopped).toBe('3 infrastructure failures in a row, the last: bwrap: cannot create namespace');
  });

  it('keeps the first reason', async () => {
    const health = new EngineHealth({ backend: 'docker', probe: answering });
    health.stop('first');
    await health.reportFailure('docker-unavailable', 'second');
    health.stop('third');
    expect(health.stopped).toBe('first');
  });
});
