import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStoredBug } from '../../src/corpus/read-stored-bug.js';
import { silentProgress } from '../../src/util/progress.js';
import { readSamples } from '../../src/rl/sample-writer.js';
import type { TrainingSample } from '../../src/rl/training-sample.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import { episodesById, miniRepo, spawnCli } from './selfplay-helpers.js';

/**
 * One turn per Solver attempt: every attempt ends at the turn limit. `--limit-hits fail` (the
 * default, method §9) scores each −1 and trains it; `mask` grades it and keeps it out of the loss.
 */
describe('ssr selfplay --limit-hits: a Solver attempt that hits the turn limit', () => {
  let root: string;
  const runs: Record<'fail' | 'mask', { code: number | null; stderr: string; out: string }> = {} as never;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-limit-hits-'));
    const repo = await miniRepo();
    await prepareTemplate(repo, 'docker', silentProgress);
    for (const mode of ['fail', 'mask'] as const) {
      const out = join(root, mode);
      // mask solves the bug fail's run kept (solve-only mode): the Solver's limit is what differs,
      // so the second run skips injecting and validating the same bug again.
      const corpus = mode === 'mask' ? ['--corpus', runs.fail.out] : [];
      const { code, stderr } = await spawnCli([
        'selfplay', '--repo', repo.location, '--steps', '1', '--policy', 'procedural', '--seed', '1', '--episodes-per-step', '1', '--attempts', '2',
        '--strategy', 'direct', '--solver-max-turns', '1', '--higher-order-cap', '0', '--sandbox', 'docker', '--limit-hits', mode, '--out', out, ...corpus,
      ]).done;
      runs[mode] = { code, stderr, out };
    }
  }, 600_000);

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  const solverSamples = async (mode: 'fail' | 'mask'): Promise<TrainingSample[]> => (await readSamples(runs[mode].out, 0)).filter((sample) => sample.role === 'solver');

  it('fail: each attempt is scored −1 without grading, stays in its group and in the loss', async () => {
    expect(runs.fail.code, runs.fail.stderr.slice(-2000)).toBe(0);
    const [record] = [...(await episodesById(runs.fail.out)).values()];
    expect(record).toMatchObject({ valid: true, solverAttempts: 2, solved: 0, rewards: { solver: [-1, -1] } });
    const bug = await readStoredBug(join(runs.fail.out, 'bugs', record!.bugId!));
    expect(bug!.solves!.attempts.map((attempt) => [attempt.status, attempt.reason])).toEqual([
      ['failed', 'limit hit: turn-limit (--limit-hits fail)'],
      ['failed', 'limit hit: turn-limit (--limit-hits fail)'],
    ]);
    const samples = await solverSamples('fail');
    expect(samples.map((sample) => [sample.finishReason, sample.reward, sample.masked])).toEqual([['turn-limit', -1, false], ['turn-limit', -1, false]]);
  });

  it('mask: each attempt is graded and masked out of the loss', async () => {
    expect(runs.mask.code, runs.mask.stderr.slice(-2000)).toBe(0);
    const [record] = [...(await episodesById(runs.mask.out)).values()];
    const [failed] = [...(await episodesById(runs.fail.out)).values()];
    expect(record!.bugId).toBe(failed!.bugId);
    const bug = await readStoredBug(join(runs.mask.out, 'bugs', record!.bugId!));
    expect(bug!.solves!.attempts.every((attempt) => !attempt.reason!.startsWith('limit hit'))).toBe(true);
    const samples = await solverSamples('mask');
    expect(samples).toHaveLength(2);
    expect(samples.every((sample) => sample.finishReason === 'turn-limit' && sample.masked && sample.maskReason === 'limit hit: turn-limit')).toBe(true);
  });
});
