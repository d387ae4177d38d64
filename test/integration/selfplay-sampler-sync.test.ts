import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrajectory } from '../../src/agent/trajectory.js';
import { silentProgress } from '../../src/util/progress.js';
import { trainingSampleSchema, type TrainingSample } from '../../src/rl/training-sample.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import { stepMetricsSchema } from '../../src/selfplay/step-metrics.js';
import { runPreflight } from '../../src/policy/preflight/run-preflight.js';
import { FAST_TINY_CONFIG } from '../../src/training/bench/sampling-service.js';
import { miniRepo, spawnCli } from './selfplay-helpers.js';
import { requireTrainerPython, startTrainerService } from './trainer-service.js';

/**
 * One trainer service trains (`--trainer`), a second one only samples (`--base-url`): after each
 * step ssr has the trainer save its weights and the sampler load them (`--sampler-sync auto`
 * finds the ssr service), and the samples carry the version the sampler served.
 */

async function getJson(url: string, body?: unknown): Promise<Record<string, unknown>> {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return (await (await fetch(url, init)).json()) as Record<string, unknown>;
}

const versionOf = async (url: string): Promise<number> => (await getJson(`${url}/health`)).policy_version as number;

/**
 * Two turns of random bytes end each injector episode (turn limit, nothing submitted): one sample and
 * one train step per step. `--max-staleness 0`: synchronous steps, so step 2 samples entirely as the
 * version the sampler loaded after step 1 (the asynchronous loop is selfplay-async-trainer.test.ts).
 */
function selfplay(samplerUrl: string, trainerUrl: string, out: string, repo: string) {
  return spawnCli([
    'selfplay', '--repo', repo, '--policy', 'tokens', '--base-url', samplerUrl, '--trainer', trainerUrl, '--steps', '2',
    '--episodes-per-step', '1', '--attempts', '2', '--max-tokens', '48', '--max-turns', '2', '--strategy', 'direct',
    '--higher-order-cap', '0', '--seed', '1', '--sandbox', 'docker', '--max-staleness', '0', '--out', out,
  ]).done;
}

describe('ssr selfplay with a separate sampler (two real trainer services, tiny model, CPU)', () => {
  let root: string;
  let repo: string;
  const children: ChildProcess[] = [];
  const start = async (args: string[]): Promise<string> => {
    const service = await startTrainerService(args);
    children.push(service.child);
    return service.url;
  };

  beforeAll(async () => {
    requireTrainerPython();
    root = await mkdtemp(join(tmpdir(), 'ssr-sampler-sync-'));
    const mini = await miniRepo();
    await prepareTemplate(mini, 'docker', silentProgress);
    repo = mini.location;
  }, 300_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('both services end at version 2 and give the same seeded completion; every sample carries the sampler\'s version', async () => {
    const trainer = await start(['--output-dir', join(root, 'trainer-ckpt')]);
    const sampler = await start(['--output-dir', join(root, 'sampler-ckpt')]);
    const out = join(root, 'run');
    const { code, stderr } = await selfplay(sampler, trainer, out, repo);
    expect(code, stderr.slice(-2000)).toBe(0);

    expect([await versionOf(trainer), await versionOf(sampler)]).toEqual([2, 2]);
    const { tokens: prompt } = (await getJson(`${trainer}/tokenize`, { messages: [{ role: 'user', content: 'fix the bug' }] })) as { tokens: number[] };
    const request = { prompt, max_tokens: 24, seed: 11, ignore_eos: true };
    const [ours, theirs] = [await getJson(`${trainer}/v1/completions`, request), await getJson(`${sampler}/v1/completions`, request)];
    const choice = (answer: Record<string, unknown>) => (answer.choices as Array<{ token_ids: number[]; logprobs: { token_logprobs: number[] } }>)[0]!;
    expect([ours.policy_version, theirs.policy_version]).toEqual([2, 2]);
    expect(choice(theirs).token_ids).toEqual(choice(ours).token_ids);
    expect(choice(theirs).logprobs.token_logprobs).toEqual(choice(ours).logprobs.token_logprobs);
    // Each sync exported the weights only (no optimizer state), and no resumable checkpoint was written (no --save-every).
    expect(readdirSync(join(root, 'trainer-ckpt')).sort()).toEqual(['sampler']);
    expect(readdirSync(join(root, 'trainer-ckpt', 'sampler')).sort()).toEqual(['v1', 'v2']);
    expect(readdirSync(join(root, 'trainer-ckpt', 'sampler', 'v2')).sort()).toEqual(['manifest.json', 'model.pt', 'tiny_config.json']);

    const metrics = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => stepMetricsSchema.parse(JSON.parse(line)));
    expect(metrics.map((line) => [line.step, line.policyVersion, line.trainer?.version])).toEqual([[1, 0, 1], [2, 1, 2]]);
    for (const version of [0, 1]) {
      const samples: TrainingSample[] = readFileSync(join(out, 'samples', `v${version}.jsonl`), 'utf8').trim().split('\n').map((line) => trainingSampleSchema.parse(JSON.parse(line)));
      expect(samples.length).toBeGreaterThan(0);
      for (const sample of samples) {
        expect(sample.policyVersion).toBe(version);
        const turns = (await readTrajectory(join(out, 'trajectories', `${sample.episodeId}-inject.jsonl`))).steps.map((step) => step.sample!);
        expect(turns.map((turn) => turn.policyVersion)).toEqual(turns.map(() => version));
      }
    }
  }, 600_000);

  it('a sampler that cannot load the weights stops the run after the step that made them: nothing trains after it', async () => {
    const trainer = await start(['--output-dir', join(root, 'trainer2-ckpt')]);
    // The same weights (the check before the first sample passes) under another model configuration: the
    // checkpoint is refused by its identity check, as a wrong --model would be.
    const sampler = await start(['--model-config', JSON.stringify({ ...JSON.parse(FAST_TINY_CONFIG), attn_chunk: 1024 })]);
    const { code, stderr } = await selfplay(sampler, trainer, join(root, 'run-bad'), repo);
    expect(code).toBe(2);
    expect(stderr).toContain(`the sampler at ${sampler} did not load the new weights (POST /update_weights_from_disk): HTTP 400`);
    expect(stderr).toMatch(/another model configuration[\s\S]*both services started with the same model flags/);
    expect([await versionOf(trainer), await versionOf(sampler)]).toEqual([1, 0]);
  }, 600_000);

  it('a sampler that serves other weights than the trainer (another initialisation) stops the run before its first sample', async () => {
    const trainer = await start(['--output-dir', join(root, 'trainer3-ckpt')]);
    const sampler = await start(['--model-config', JSON.stringify({ ...JSON.parse(FAST_TINY_CONFIG), seed: 1 })]);
    const out = join(root, 'run-other');
    const { code, stderr } = await selfplay(sampler, trainer, out, repo);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`the sampler at ${sampler} does not serve the trainer's weights \\(POST /v1/completions\\): the log-probs it returned for 16 sampled tokens differ from the trainer's \\(POST ${trainer}/logprobs, version 0\\)`));
    expect(existsSync(join(out, 'samples', 'v0.jsonl'))).toBe(false);
    expect([await versionOf(trainer), await versionOf(sampler)]).toEqual([0, 0]);
  }, 600_000);

  it('the ssr service refuses a --sampler-logprobs processed claim at the preflight: it samples top-k from the whole vocabulary only', async () => {
    const service = await start([]);
    await expect(runPreflight({ endpoint: { root: service }, mode: 'tokens', samplerLogprobs: 'processed' })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/\/v1\/completions refused a probe with top_k 1 \(HTTP 400: .*'top_k' 1 is not supported.*drop --sampler-logprobs processed/),
    });
  }, 60_000);
});
