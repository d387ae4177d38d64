import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../src/util/progress.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import { stepMetricsSchema, type StepMetrics } from '../../src/selfplay/step-metrics.js';
import { trainingLineSchema, type TrainingLine } from '../../src/training/training-journal.js';
import { episodeLines, killGroup, miniRepo, spawnCli, waitFor } from './selfplay-helpers.js';
import { scriptedTrainer, type ScriptedTrainer } from '../doubles/scripted-trainer.js';

type Result = Awaited<ReturnType<typeof spawnCli>['done']>;

/**
 * minicalc and its image, made once for both suites below: they run side by side
 * (describe.concurrent; their own trainer, --out and seed), so neither waits out the other's
 * train-call holds and golden gates, and two calls must not both create the repo.
 */
let minicalc: Promise<string> | undefined;
const minicalcReady = (): Promise<string> =>
  (minicalc ??= (async () => {
    const repo = await miniRepo();
    await prepareTemplate(repo, 'docker', silentProgress);
    return repo.location;
  })());

/**
 * The asynchronous loop against a scripted trainer whose train call makes two updates (the
 * version moves by 2) and which holds step 1's call until step 2 has sampled: step 2 then samples
 * entirely at v0 while v0 trains (the overlap), and is trained at v2, two versions later — more
 * than --max-staleness 1, so all its samples are dropped and counted. Then the safety checks:
 * a trainer restarted behind the run, and --resume from the last checkpoint.
 */
describe.concurrent('ssr selfplay --max-staleness 1 --save-every 1: asynchronous steps, stale samples, checkpoints and resume', () => {
  let root: string;
  let out: string;
  let repoPath: string;
  let trainer: ScriptedTrainer;
  const results: Record<string, Result> = {};

  // One Solver attempt per bug, of at most 4 turns (it used up to 14 of 24 on minicalc, none of them
  // asserted): what is tested is the train calls and versions, which any sample shows.
  const run = (name: string, extra: string[]) =>
    spawnCli([
      'selfplay', '--repo', repoPath, '--policy', 'procedural', '--seed', '1', '--episodes-per-step', '1', '--attempts', '1', '--strategy', 'direct',
      '--solver-max-turns', '4', '--higher-order-cap', '0', '--sandbox', 'docker', '--trainer', trainer.url, '--max-staleness', '1', '--out', out, ...extra,
    ]).done.then((result) => (results[name] = result));

  const metrics = (): StepMetrics[] => readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => stepMetricsSchema.parse(JSON.parse(line)));
  const journal = (): TrainingLine[] => readFileSync(join(out, 'training.jsonl'), 'utf8').trim().split('\n').map((line) => trainingLineSchema.parse(JSON.parse(line)));
  const step2Recorded = () => episodeLines(out).some((record) => record.step === 2);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-async-'));
    out = join(root, 'run');
    repoPath = await minicalcReady();
    trainer = await scriptedTrainer({
      versionsPerCall: 2,
      hold: (call) => (call.expected_version === 0 ? waitFor('step 2 sampled', step2Recorded, 300_000) : Promise.resolve()),
    });
    await run('first', ['--steps', '3', '--save-every', '1']);
    await run('second', ['--steps', '4']);
    // The trainer service dies and is restarted from the run's last checkpoint (v4); the run trained to v6.
    trainer.version = 4;
    const calls = trainer.calls.length;
    await run('behind', ['--steps', '5']);
    trainer.version = 2;
    await run('resume-off-checkpoint', ['--steps', '5', '--resume']);
    expect(trainer.calls.length).toBe(calls);
    trainer.version = 4;
    await run('resumed', ['--steps', '5', '--resume']);
  }, 1_200_000);

  afterAll(async () => {
    await trainer?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('trains step 1 while step 2 samples: the train call overlaps sampling', () => {
    expect(results.first!.code, results.first!.stderr.slice(-2000)).toBe(0);
    const [first] = metrics();
    expect(first!.pipeline).toMatchObject({ trainVersion: 0, staleness: { 0: first!.samples.written } });
    expect(first!.pipeline!.overlapMs).toBeGreaterThan(0);
    // Held until step 2's episode was recorded: the whole of step 2's sampling lies inside the call.
    expect(first!.pipeline!.overlapMs).toBeGreaterThanOrEqual(metrics()[1]!.pipeline!.samplingMs * 0.9);
    expect(first!.pipeline!.trainingMs).toBeGreaterThanOrEqual(first!.pipeline!.overlapMs);
  });

  it('drops step 2\'s samples, two versions old when trained, and counts them by lag', () => {
    const second = metrics()[1]!;
    expect(second.policyVersion).toBe(0);
    expect(second.samples.stale).toBeGreaterThan(0);
    expect(second.samples.written).toBe(0);
    expect(second.pipeline).toMatchObject({ trainVersion: null, staleness: { 2: second.samples.stale }, lost: 0 });
    expect(existsSync(join(out, 'samples', 'v2.jsonl'))).toBe(true);
    expect(readFileSync(join(out, 'samples', 'v2.jsonl'), 'utf8').split('\n').filter(Boolean).every((line) => (JSON.parse(line) as { episodeId: string }).episodeId.startsWith('s3-'))).toBe(true);
  });

  it('trains each version once, in order, and samples step 3 as the new version', () => {
    expect(trainer.calls.slice(0, 2).map((call) => call.expected_version)).toEqual([0, 2]);
    expect(metrics().slice(0, 3).map((line) => [line.step, line.policyVersion, line.pipeline?.trainVersion, line.trainer?.version ?? null])).toEqual([
      [1, 0, 0, 2],
      [2, 0, null, null],
      [3, 2, 2, 4],
    ]);
  });

  it('--save-every 1 writes a checkpoint after each train call and records it in training.jsonl', () => {
    expect(trainer.saves).toEqual([{ path: '/checkpoints/v2', version: 2 }, { path: '/checkpoints/v4', version: 4 }]);
    expect(journal().filter((line) => line.type === 'checkpoint').map((line) => [line.step, line.version, line.type === 'checkpoint' && line.path])).toEqual([
      [1, 2, '/checkpoints/v2'],
      [3, 4, '/checkpoints/v4'],
    ]);
    expect(journal().filter((line) => line.type === 'train').map((line) => [line.step, line.type === 'train' && line.expectedVersion])).toEqual([[1, 0], [3, 2], [4, 4], [5, 4]]);
  });

  it('stops with a clear error and trains nothing when the trainer is behind the run', () => {
    expect(results.second!.code, results.second!.stderr.slice(-2000)).toBe(0);
    expect(results.behind!.code).toBe(2);
    expect(results.behind!.stderr).toContain('is at policy version 4, but this run already trained up to version 6: it was restarted from an older checkpoint. Nothing was trained.');
    expect(results.behind!.stderr).toContain('restart the trainer service with `--resume /checkpoints/v4` and run the same command with --resume');
    expect(results['resume-off-checkpoint']!.code).toBe(2);
    expect(results['resume-off-checkpoint']!.stderr).toContain("--resume: the trainer at " + trainer.url + " is at policy version 2, but the run's last checkpoint is version 4: restart the trainer service with `--resume /checkpoints/v4`");
  });

  it('--resume continues from the last checkpoint: step 5 trains at its version', () => {
    expect(results.resumed!.code, results.resumed!.stderr.slice(-2000)).toBe(0);
    expect(trainer.calls.map((call) => call.expected_version)).toEqual([0, 2, 4, 4]);
    const last = metrics().at(-1)!;
    expect([last.step, last.policyVersion, last.pipeline?.trainVersion, last.trainer?.version]).toEqual([5, 4, 4, 6]);
    expect(journal().find((line) => line.type === 'resume')).toMatchObject({ step: 5, version: 4, path: '/checkpoints/v4', pending: [] });
  });
});

describe.concurrent('ssr selfplay killed while a step trains: the re-run trains nothing twice', () => {
  let root: string;
  let trainer: ScriptedTrainer;
  let killed = false;
  let signal: NodeJS.Signals | null = null;
  let rerun: Result;
  let out: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-async-kill-'));
    out = join(root, 'run');
    const repoPath = await minicalcReady();
    // Step 1's call is held until the run is dead; the trainer then applies it anyway (the request arrived).
    trainer = await scriptedTrainer({ hold: (call) => (call.expected_version === 0 ? waitFor('the run killed', () => killed, 300_000) : Promise.resolve()) });
    // One Solver attempt per bug, of at most 4 turns: the re-sent train call is what is tested, and any sample shows it.
    const args = [
      'selfplay', '--repo', repoPath, '--policy', 'procedural', '--seed', '2', '--episodes-per-step', '1', '--attempts', '1', '--strategy', 'direct',
      '--solver-max-turns', '4', '--higher-order-cap', '0', '--sandbox', 'docker', '--trainer', trainer.url, '--steps', '2', '--out', out,
    ];
    const first = spawnCli(args);
    await waitFor('step 1\'s train call', () => trainer.calls.length > 0, 300_000);
    killGroup(first);
    signal = (await first.done).signal;
    killed = true;
    await waitFor('the held call applied', () => trainer.version === 1, 10_000);
    rerun = await spawnCli(args).done;
  }, 900_000);

  afterAll(async () => {
    await trainer?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('finds step 1 applied (409 at its journalled version) and trains step 2 once', () => {
    expect(signal).toBe('SIGKILL');
    expect(rerun.code, rerun.stderr.slice(-2000)).toBe(0);
    expect(trainer.calls.map((call) => call.expected_version)).toEqual([0, 0, 1]);
    expect(trainer.version).toBe(2);
    const lines = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => stepMetricsSchema.parse(JSON.parse(line)));
    expect(lines.map((line) => [line.step, line.pipeline?.trainVersion, line.trainer?.version])).toEqual([[1, 0, 1], [2, 1, 2]]);
    expect(lines[0]!.trainer).toMatchObject({ metrics: { alreadyApplied: true } });
    // The re-sent call carried the same samples as the applied one.
    expect(trainer.calls[1]!.samples.map((sample) => sample.id)).toEqual(trainer.calls[0]!.samples.map((sample) => sample.id));
  });
});
