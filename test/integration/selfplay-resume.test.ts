import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerClient } from '../../src/sandbox/docker/docker-client.js';
import { OWNER_LABEL } from '../../src/sandbox/docker/orphan-sweep.js';
import { silentProgress } from '../../src/util/progress.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import { episodeLines, episodesById, killGroup, miniRepo, sampleIds, spawnCli, waitFor } from './selfplay-helpers.js';

/**
 * How long a kill waits for its moment. The wait also ends when the run does, so this only bounds
 * a run that hangs: the set-up hook's own limit. (300 s failed main's version at load 30, where
 * the first episode record took longer, and the killed runs now share the machine with the reference.)
 */
const RUN_TIMEOUT_MS = 1_800_000;

/** Ids of the containers a process owns, as the Docker engine lists them. */
async function containersOf(pid: number): Promise<string[]> {
  const listed = await dockerClient().listContainers({ all: true, filters: { label: [`${OWNER_LABEL}=${hostname()}:${pid}`] } });
  return listed.map((container) => container.Id);
}

describe('ssr selfplay after kill -9: the re-run continues with no lost and no duplicated episodes', () => {
  let root: string;
  let args: string[];
  let reference: string;
  let resumed: string;
  const kills: string[] = [];
  const warm = { seen: new Set<string>(), most: 0, stdout: '', left: [] as string[] };

  async function runToEnd(out: string): Promise<void> {
    const { code, stderr } = await spawnCli([...args, '--out', out]).done;
    if (code !== 0) throw new Error(`ssr selfplay --out ${out} exited ${code}:\n${stderr.slice(-3000)}`);
  }

  /** Start the run and SIGKILL its whole process group once `when` holds. */
  async function killWhen(out: string, what: string, when: () => boolean): Promise<void> {
    const run = spawnCli([...args, '--out', out]);
    const ended = run.done.then((result) => ({ ...result, ended: true }));
    await Promise.race([waitFor(what, when, RUN_TIMEOUT_MS), ended]);
    killGroup(run);
    const result = await run.done;
    kills.push(`${what}: ${result.signal ?? `exit ${result.code}`}`);
  }

  /**
   * The uninterrupted run, with --warm 2 (one run serves both files' claims: --warm is otherwise a
   * whole run of this shape): its containers are watched while it runs, and the resumed run
   * (without --warm) must end with the same episodes.
   */
  async function warmReference(): Promise<void> {
    const run = spawnCli([...args, '--warm', '2', '--out', reference]);
    let ended = false;
    const done = run.done.finally(() => (ended = true));
    while (!ended) {
      const now = await containersOf(run.child.pid!);
      for (const id of now) warm.seen.add(id);
      warm.most = Math.max(warm.most, now.length);
      await sleep(200);
    }
    const result = await done;
    if (result.code !== 0) throw new Error(`ssr selfplay --warm 2 --out ${reference} exited ${result.code}:\n${result.stderr.slice(-3000)}`);
    warm.stdout = result.stdout;
    warm.left = await containersOf(run.child.pid!);
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-resume-'));
    const repo = await miniRepo();
    await prepareTemplate(repo, 'docker', silentProgress);
    const reposFile = join(root, 'repos.yaml');
    // Bugs in two files, so failed attempts grow order-2 episodes that a resume must not lose. One
    // Solver attempt per bug: at seed 3 step 1's second bug's attempt fails and grows one (a second
    // attempt only added Solver time to each of the four runs).
    await writeFile(reposFile, `repos:\n  - id: minicalc\n    source:\n      path: ${repo.location}\n    thresholds:\n      min_changed_files: 2\n`);
    args = [
      'selfplay', '--repo', 'minicalc', '--repos', reposFile, '--steps', '2', '--policy', 'procedural', '--seed', '3', '--episodes-per-step', '2',
      '--attempts', '1', '--strategy', 'direct', '--solver-max-turns', '24', '--sandbox', 'docker', '--json',
    ];
    reference = join(root, 'reference');
    resumed = join(root, 'resumed');
    // The reference and the interrupted runs share nothing but the repo's image (their own --out,
    // their own sandboxes, found by each run's pid), so they run side by side: the killed runs'
    // waits and each run's serial stretches (golden gate, a step's last episode) overlap the other.
    // The procedural policy's outcomes follow from the seed and the tests' results, not timing.
    const interrupted = async (): Promise<void> => {
      // Killed mid-step 1 (after its first episode), then mid-step 2, then run to the end.
      await killWhen(resumed, 'the first episode record', () => episodeLines(resumed).length >= 1);
      const step2Started = () => existsSync(join(resumed, 'metrics.jsonl')) && readdirSync(join(resumed, 'trajectories')).some((name) => name.startsWith('s2-'));
      await killWhen(resumed, 'a step-2 trajectory', step2Started);
      await runToEnd(resumed);
    };
    // Both settle before either's failure is thrown: no run is left going when the hook ends.
    const settled = await Promise.allSettled([warmReference(), interrupted()]);
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    // Four runs: at load 28 on 2 cores they took over 20 minutes (main's version as well).
  }, 1_800_000);

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('--warm 2: runs episodes from pre-started sandboxes and leaves none of them behind when it ends', () => {
    const summary = JSON.parse(warm.stdout.trim().split('\n').at(-1)!) as { steps: number; episodes: number; valid: number };
    expect(summary.steps).toBe(2);
    expect(summary.episodes).toBeGreaterThanOrEqual(4);
    expect(summary.valid, warm.stdout).toBeGreaterThanOrEqual(1);
    // With a pool of 2, sandboxes wait started before any is asked for.
    expect(warm.most).toBeGreaterThanOrEqual(2);
    expect(warm.seen.size).toBeGreaterThan(2);
    // The pool's last two were disposed by the run itself, not left for a later sweep.
    expect(warm.left).toEqual([]);
  });

  it('was really killed in the middle', () => {
    expect(kills).toEqual(['the first episode record: SIGKILL', 'a step-2 trajectory: SIGKILL']);
  });

  it('ends with the same episodes as an uninterrupted run: same ids, same outcomes', async () => {
    const expected = await episodesById(reference);
    const got = await episodesById(resumed);
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    expect([...expected.values()].some((record) => record.order === 2)).toBe(true);
    for (const [id, record] of expected) {
      const mine = got.get(id)!;
      expect({ id, status: mine.status, bugId: mine.bugId, valid: mine.valid, rewards: mine.rewards }).toEqual({ id, status: record.status, bugId: record.bugId, valid: record.valid, rewards: record.rewards });
    }
  });

  it('records no episode twice', () => {
    const completed = episodeLines(resumed).filter((line) => line.status === 'completed').map((line) => line.id);
    expect(completed.length).toBe(new Set(completed).size);
    expect(episodeLines(reference).length).toBe(new Set(episodeLines(reference).map((line) => line.id)).size);
  });

  it('writes every sample and every step once', async () => {
    const ids = await sampleIds(resumed);
    expect(ids.length).toBe(new Set(ids).size);
    expect(ids.sort()).toEqual((await sampleIds(reference)).sort());
    const metricSteps = (dir: string) => readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { step: number }).step);
    expect(metricSteps(resumed)).toEqual([1, 2]);
    expect(metricSteps(reference)).toEqual([1, 2]);
  });
});
