import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../src/util/progress.js';
import { trainingSampleSchema, type TrainingSample } from '../../src/rl/training-sample.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import { stepMetricsSchema } from '../../src/selfplay/step-metrics.js';
import { miniRepo, spawnCli } from './selfplay-helpers.js';

interface TrainCall {
  expected_version: number;
  samples: TrainingSample[];
  config?: Record<string, unknown>;
}

/** The trainer's HTTP contract (trainer/README.md): the boundary is faked, the rest is real. */
function fakeTrainer(): Promise<{ url: string; server: Server; calls: TrainCall[] }> {
  let version = 0;
  const calls: TrainCall[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const send = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.method === 'GET' && request.url === '/health') return send(200, { status: 'ok', policy_version: version });
      if (request.method !== 'POST' || request.url !== '/train/step') return send(404, { error: { message: 'no such route' } });
      const body = JSON.parse(text) as TrainCall;
      calls.push(body);
      if (body.expected_version !== version) return send(409, { error: { message: 'version conflict' } });
      version += 1;
      return send(200, { version, metrics: { loss: 0.5 / version, samples: { received: body.samples.length } } });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, calls })));
}

describe('ssr selfplay --trainer: a train step after every step moves the policy version', () => {
  let root: string;
  let out: string;
  let trainer: Awaited<ReturnType<typeof fakeTrainer>>;
  let code: number | null;
  let stderr: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-trainer-'));
    out = join(root, 'run');
    const repo = await miniRepo();
    await prepareTemplate(repo, 'docker', silentProgress);
    trainer = await fakeTrainer();
    // --max-staleness 0: synchronous steps, so step 2 samples entirely as the trainer's new version
    // (the asynchronous loop is selfplay-async-trainer.test.ts). One Solver attempt per bug, of at
    // most 4 turns: the train calls and versions are what is tested, and any sample shows them.
    const run = spawnCli([
      'selfplay', '--repo', repo.location, '--steps', '2', '--policy', 'procedural', '--seed', '1', '--episodes-per-step', '1', '--attempts', '1',
      '--strategy', 'direct', '--solver-max-turns', '4', '--higher-order-cap', '0', '--sandbox', 'docker', '--trainer', trainer.url, '--max-staleness', '0', '--out', out,
      '--advantage', 'dr-grpo', '--max-context-tokens', '64000',
    ]);
    ({ code, stderr } = await run.done);
  }, 600_000);

  afterAll(async () => {
    trainer?.server.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const samplesOf = (version: number): TrainingSample[] => {
    const path = join(out, 'samples', `v${version}.jsonl`);
    return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').map((line) => trainingSampleSchema.parse(JSON.parse(line))) : [];
  };

  it('posts each step\'s samples with the version they were sampled at', () => {
    expect(code, stderr.slice(-2000)).toBe(0);
    expect(trainer.calls.map((call) => call.expected_version)).toEqual([0, 1]);
    // Dr.GRPO: the trainer divides by the generation budget (the context limit) x the batch size.
    expect(trainer.calls.map((call) => call.config)).toEqual([0, 1].map(() => ({ loss_denominator: 'budget', generation_budget: 64000 })));
    expect(trainer.calls[0]!.samples.map((s) => s.id).sort()).toEqual(samplesOf(0).map((s) => s.id).sort());
    expect(trainer.calls[1]!.samples.map((s) => s.id).sort()).toEqual(samplesOf(1).map((s) => s.id).sort());
  });

  it('samples step 2 as the trainer\'s new version', () => {
    expect(samplesOf(0).length).toBeGreaterThan(0);
    expect(samplesOf(0).every((s) => s.policyVersion === 0)).toBe(true);
    expect(samplesOf(1).length).toBeGreaterThan(0);
    expect(samplesOf(1).every((s) => s.policyVersion === 1)).toBe(true);
  });

  it('records the trainer\'s answer and the version of each step in metrics.jsonl', () => {
    const lines = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => stepMetricsSchema.parse(JSON.parse(line)));
    expect(lines.map((line) => [line.step, line.policyVersion, line.trainer?.version])).toEqual([[1, 0, 1], [2, 1, 2]]);
    expect(lines[0]!.trainer).toMatchObject({ metrics: { loss: 0.5 } });
  });
});
