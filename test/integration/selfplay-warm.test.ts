import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerClient } from '../../src/sandbox/docker/docker-client.js';
import { OWNER_LABEL } from '../../src/sandbox/docker/orphan-sweep.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import { silentProgress } from '../../src/util/progress.js';
import { miniRepo, spawnCli } from './selfplay-helpers.js';

/** Ids of the containers a process owns, as the Docker engine lists them. */
async function containersOf(pid: number): Promise<string[]> {
  const listed = await dockerClient().listContainers({ all: true, filters: { label: [`${OWNER_LABEL}=${hostname()}:${pid}`] } });
  return listed.map((container) => container.Id);
}

describe('ssr selfplay --warm 2 on Docker', () => {
  let root: string | undefined;

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('runs episodes from pre-started sandboxes and leaves none of them behind when it ends', async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-warm-'));
    const repo = await miniRepo();
    await prepareTemplate(repo, 'docker', silentProgress);
    const run = spawnCli([
      'selfplay', '--repo', repo.location, '--steps', '1', '--policy', 'procedural', '--seed', '3', '--episodes-per-step', '2',
      '--attempts', '2', '--strategy', 'direct', '--solver-max-turns', '24', '--sandbox', 'docker', '--warm', '2', '--json', '--out', join(root, 'run'),
    ]);
    // Watch the run's containers: with a pool of 2, sandboxes wait started before any is asked for.
    const seen = new Set<string>();
    let most = 0;
    let ended = false;
    const done = run.done.finally(() => (ended = true));
    while (!ended) {
      const now = await containersOf(run.child.pid!);
      for (const id of now) seen.add(id);
      most = Math.max(most, now.length);
      await sleep(200);
    }
    const { code, stdout, stderr } = await done;
    expect(code, stderr.slice(-3000)).toBe(0);
    const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as { steps: number; episodes: number; valid: number };
    expect(summary.steps).toBe(1);
    expect(summary.episodes).toBeGreaterThanOrEqual(2);
    expect(summary.valid, stdout).toBeGreaterThanOrEqual(1);
    expect(most).toBeGreaterThanOrEqual(2);
    expect(seen.size).toBeGreaterThan(2);
    // The pool's last two were disposed by the run itself, not left for a later sweep.
    expect(await containersOf(run.child.pid!)).toEqual([]);
  }, 600_000);
});
