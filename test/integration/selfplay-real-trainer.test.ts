import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrajectory } from '../../src/agent/trajectory.js';
import type { TokenSample } from '../../src/policy/policy.js';
import { silentProgress } from '../../src/util/progress.js';
import { trainingSampleSchema, type TrainingSample } from '../../src/rl/training-sample.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import { stepMetricsSchema } from '../../src/selfplay/step-metrics.js';
import { miniRepo, spawnCli } from './selfplay-helpers.js';
import { requireTrainerPython, startTrainerService } from './trainer-service.js';

const MAX_TOKENS = 48;
/** `<|im_start|>assistant\n` in the tiny model's byte vocabulary: what every sampled turn follows. */
const GENERATION_PROMPT = [258, ...Buffer.from('assistant\n')];
/**
 * A smaller tiny model than the default: the injector prompt is ~10k byte tokens and the
 * hand-written attention is quadratic in it, so one layer of width 16 keeps a turn at seconds on
 * this CPU. The loop is under test here, not the model.
 */
const MODEL_CONFIG = JSON.stringify({ d_model: 16, n_layers: 1, n_heads: 1, d_ff: 32, attn_chunk: 2048 });

/** [start, end) of each maximal run of lossMask 1: the policy's sampled turns. */
function maskRuns(mask: number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 1 && mask[i - 1] !== 1) runs.push([i, i]);
    if (mask[i] === 1) runs[runs.length - 1]![1] = i + 1;
  }
  return runs;
}

describe('ssr selfplay against the real trainer service (tiny model, CPU): the closed RL loop', () => {
  let root: string;
  let out: string;
  let trainer: Awaited<ReturnType<typeof startTrainerService>> | undefined;
  let code: number | null;
  let stderr: string;

  beforeAll(async () => {
    requireTrainerPython();
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-real-trainer-'));
    out = join(root, 'run');
    const repo = await miniRepo();
    await prepareTemplate(repo, 'docker', silentProgress);
    trainer = await startTrainerService(['--model-config', MODEL_CONFIG]);
    // Two turns of random bytes end each injector episode (turn limit, nothing submitted), so no
    // bug is valid and no Solver runs: each step is one injector sample and one train step.
    // --max-staleness 0: synchronous steps, so each step samples as the version the previous one trained.
    const run = spawnCli([
      'selfplay', '--repo', repo.location, '--policy', 'tokens', '--base-url', trainer.url, '--trainer', trainer.url, '--steps', '2',
      '--episodes-per-step', '1', '--attempts', '2', '--max-tokens', String(MAX_TOKENS), '--max-turns', '2', '--strategy', 'direct',
      '--higher-order-cap', '0', '--seed', '1', '--sandbox', 'docker', '--max-staleness', '0', '--out', out,
    ]);
    ({ code, stderr } = await run.done);
  }, 600_000);

  afterAll(async () => {
    trainer?.child.kill('SIGKILL');
    if (root) await rm(root, { recursive: true, force: true });
  });

  const samplesOf = (version: number): TrainingSample[] => {
    const path = join(out, 'samples', `v${version}.jsonl`);
    return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').map((line) => trainingSampleSchema.parse(JSON.parse(line))) : [];
  };

  /** The turns the policy sampled in an episode, from its trajectory file (full prompts, whatever the format stored). */
  const sampledTurns = async (sample: TrainingSample): Promise<TokenSample[]> =>
    (await readTrajectory(join(out, 'trajectories', `${sample.episodeId}-inject.jsonl`))).steps.map((step) => step.sample!);

  it('trains after each step: metrics.jsonl has versions 0 then 1, the service ends at version 2', async () => {
    expect(code, stderr.slice(-2000)).toBe(0);
    const lines = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => stepMetricsSchema.parse(JSON.parse(line)));
    expect(lines.map((line) => [line.step, line.policyVersion, line.trainer?.version])).toEqual([[1, 0, 1], [2, 1, 2]]);
    expect(lines.map((line) => line.trainer?.metrics)).toEqual([
      expect.objectContaining({ samples: expect.objectContaining({ received: 1 }) }),
      expect.objectContaining({ samples: expect.objectContaining({ received: 1 }) }),
    ]);
    const health = (await (await fetch(`${trainer!.url}/health`)).json()) as { policy_version: number };
    expect(health.policy_version).toBe(2);
  });

  it.each([0, 1])('writes samples/v%i.jsonl, every sample at that version', (version) => {
    const samples = samplesOf(version);
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.every((sample) => sample.policyVersion === version)).toBe(true);
  });

  it.each([0, 1])('v%i samples hold the exact sampled token ids, loss mask 1 on exactly those', async (version) => {
    for (const sample of samplesOf(version)) {
      const { ids, lossMask, logprobs } = sample.tokens!;
      expect([lossMask.length, logprobs.length]).toEqual([ids.length, ids.length]);
      const turns = await sampledTurns(sample);
      expect(turns.length).toBeGreaterThan(0);
      expect(turns.every((turn) => turn.policyVersion === version)).toBe(true);
      // One exact sequence: the last turn's prompt already holds every earlier turn's ids.
      const last = turns[turns.length - 1]!;
      expect(ids).toEqual([...last.promptTokenIds, ...last.completionTokenIds]);
      const runs = maskRuns(lossMask);
      expect(runs.map(([start, end]) => ids.slice(start, end))).toEqual(turns.map((turn) => turn.completionTokenIds));
      expect(runs.map(([start, end]) => logprobs.slice(start, end))).toEqual(turns.map((turn) => turn.completionLogprobs));
      for (const [start, end] of runs) {
        expect(end - start).toBeLessThanOrEqual(MAX_TOKENS);
        expect(ids.slice(start - GENERATION_PROMPT.length, start)).toEqual(GENERATION_PROMPT);
      }
      expect(logprobs.every((logprob, i) => (lossMask[i] === 1 ? typeof logprob === 'number' && logprob <= 0 : logprob === null))).toBe(true);
    }
  });
});
