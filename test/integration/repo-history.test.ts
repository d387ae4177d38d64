import { describe, expect, it } from 'vitest';
import { historyNote, historyUsable, probeRepoHistory } from '../../src/roles/repo-history.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import { dockerTemplate, exampleRepo, tinyRepo } from '../helpers/sandboxes.js';

/** The history probe on real images: what the Injector will see in its sandbox, read with real git. */
describe('probeRepoHistory (real Docker, real git)', () => {
  it('finds revertible code changes in pyledger, and none in a repo whose only later commit adds tests', async () => {
    const provider = createProvider('docker');
    const pyledger = await probeRepoHistory(provider, await dockerTemplate(await exampleRepo()));
    expect(pyledger.commits).toBeGreaterThan(1);
    expect(pyledger.revertible).toBeGreaterThan(0);
    expect(historyUsable(pyledger)).toBe(true);

    const tiny = await probeRepoHistory(provider, await dockerTemplate(await tinyRepo()));
    expect(tiny).toEqual({ commits: 2, revertible: 0 });
    expect(historyUsable(tiny)).toBe(false);
    expect(historyNote('tiny', tiny)).toBe('history not planned on tiny (2 commits, none of the last 200 modifying code): its mixed episodes use removal');
  }, 120_000);
});
