import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodeRecordSchema, type EpisodeRecord } from '../../src/corpus/episode-record.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { silentProgress } from '../../src/util/progress.js';
import { episodeLines, miniRepo, ROOT, spawnCli, waitFor, type CliRun } from './selfplay-helpers.js';

/**
 * Two engines share one run: the shared engine (A) and a second dockerd with its own data root,
 * exec root and socket (B, started by scripts/start-extra-docker as CI and users start one),
 * standing in for a remote host. B starts without the repo image: the run streams it from A.
 */
const ENGINE_B = 'ssrtest-b';
const HOST_A = process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
const extraDocker = (action: string): string => execFileSync(join(ROOT, 'scripts/start-extra-docker'), [action, ENGINE_B], { encoding: 'utf8' }).trim();
const docker = (host: string, ...args: string[]): string => execFileSync('docker', ['-H', host, ...args], { encoding: 'utf8', timeout: 20_000 }).trim();

/** Sandbox containers of one run (its process) on an engine; 0 when the engine does not answer. */
function runContainers(host: string, run: CliRun): number {
  try {
    return docker(host, 'ps', '-q', '--filter', `label=ssr.owner=${hostname()}:${run.child.pid}`).split('\n').filter((id) => id !== '').length;
  } catch {
    return 0;
  }
}

// One Solver attempt per bug: what is tested is where episodes run and what becomes of those on a
// lost engine, which any attempt shows (a second attempt only added Solver time).
const SELFPLAY = ['selfplay', '--steps', '1', '--policy', 'procedural', '--seed', '5', '--attempts', '1', '--strategy', 'direct', '--solver-max-turns', '24', '--slots-per-host', '1', '--json'];

/** The order-1 ids of a run's records, each with how many completed lines it has. */
function completedLines(records: readonly EpisodeRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(record.id, (counts.get(record.id) ?? 0) + (record.status === 'completed' ? 1 : 0));
  return counts;
}

describe('ssr selfplay --docker-host A --docker-host B', () => {
  let hostB: string;
  let dir: string;
  let repoPath: string;
  let template: SandboxTemplate;

  beforeAll(async () => {
    hostB = extraDocker('start');
    dir = await mkdtemp('/tmp/ssr-engines-');
    const repo = await miniRepo();
    repoPath = repo.location;
    template = await prepareTemplate(repo, 'docker', silentProgress);
    // B must get the image from A during the run (the streaming path), not from an earlier run.
    try {
      docker(hostB, 'rmi', '-f', template.ref);
    } catch {
      // not there: as wanted
    }
  }, 180_000);

  afterAll(async () => {
    extraDocker('stop');
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  // One run serves both claims (a second run of the same shape added minutes to CI): its episodes
  // go to both engines, B gets the image streamed from A, then B is killed while one of its
  // episodes works there.
  let result: Awaited<CliRun['done']>;
  let out: string;
  const seen = { a: 0, b: 0 };
  let imageOnB = '';

  beforeAll(async () => {
    out = join(dir, 'loss');
    const run = spawnCli([...SELFPLAY, '--repo', repoPath, '--episodes-per-step', '4', '--docker-host', HOST_A, '--docker-host', hostB, '--out', out]);
    let killed = false;
    const watch = setInterval(() => {
      seen.a = Math.max(seen.a, runContainers(HOST_A, run));
      if (!killed) seen.b = Math.max(seen.b, runContainers(hostB, run));
    }, 300);
    // Kill B (dockerd and its containerd, SIGKILL) while one of this run's episodes works there.
    const solving = (): boolean =>
      existsSync(join(out, 'trajectories')) && readdirSync(join(out, 'trajectories')).some((name) => readFileSync(join(out, 'trajectories', name), 'utf8').split('\n').length > 3);
    const onB = (): boolean => {
      const now = runContainers(hostB, run);
      seen.b = Math.max(seen.b, now);
      return now > 0 && solving();
    };
    await Promise.race([waitFor('an episode at work on B', onB, 300_000), run.done]);
    // B runs a container of this run, so it holds the image: read its id before B goes.
    imageOnB = docker(hostB, 'image', 'inspect', '--format', '{{.Id}}', template.ref);
    killed = true;
    extraDocker('kill');
    result = await run.done.finally(() => clearInterval(watch));
  }, 900_000);

  it('places episodes on both engines, streams the image to B by id, and finishes with valid bugs', () => {
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(seen.a, 'containers on A').toBeGreaterThan(0);
    expect(seen.b, 'containers on B').toBeGreaterThan(0);
    expect(result.stderr).toMatch(/share image.*→ unix:\/\/\/run\/ssr-docker-ssrtest-b\.sock/);
    expect(imageOnB).toBe(docker(HOST_A, 'image', 'inspect', '--format', '{{.Id}}', template.ref));
    const summary = JSON.parse(result.stdout) as { steps: number; episodes: number; valid: number };
    expect(summary.steps).toBe(1);
    expect(summary.valid).toBeGreaterThanOrEqual(1);
  });

  it('loses B mid-run: its episodes are discarded, placed again on A, and the run ends with every episode once', () => {
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(result.stderr).toMatch(/ssr-docker-ssrtest-b\.sock is down/);
    const records = episodeLines(out).map((line) => episodeRecordSchema.parse(line));
    const order1 = [...completedLines(records.filter((record) => record.order === 1))];
    // Nothing lost, nothing twice: each of the 4 planned episodes has exactly one completed line.
    expect(order1).toHaveLength(4);
    for (const [id, completed] of order1) expect(completed, id).toBe(1);
    for (const [id, completed] of completedLines(records)) expect(completed, id).toBeLessThanOrEqual(1);
    const discarded = records.filter((record) => record.status === 'discarded');
    expect(discarded.length).toBeGreaterThanOrEqual(1);
    for (const record of discarded) {
      expect(record.discardReason).toMatch(/ssr-docker-ssrtest-b\.sock|docker-unavailable/);
      expect(record.rewards).toEqual({ injector: null, solver: [] });
    }
    expect(JSON.parse(result.stdout)).toMatchObject({ steps: 1, outDir: out });
  });
});
