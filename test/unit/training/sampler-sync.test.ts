import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectSampler } from '../../../src/training/detect-sampler.js';
import { checkStartingSampler, publishWeights } from '../../../src/training/publish-weights.js';
import { syncSglang } from '../../../src/training/sync-sglang.js';
import { syncSsrService } from '../../../src/training/sync-ssr.js';
import { adapterName, syncVllmLora } from '../../../src/training/sync-vllm-lora.js';
import { verifySampler } from '../../../src/training/verify-sampler.js';
import type { TrainerCheckpoint } from '../../../src/training/trainer-checkpoint.js';
import { fakeServer, type FakeAnswer } from './fake-server.js';
import { toySglang, toySsr, toyTrainer, toyVllm, toyWeights } from './toy-stack.js';

const FULL: TrainerCheckpoint = { path: '/ckpt/v3', version: 3, kind: 'full' };
const LORA: TrainerCheckpoint = { path: '/ckpt/v3', version: 3, kind: 'lora' };

let servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const server of servers) server.close();
  servers = [];
});

async function serve(routes: Parameters<typeof fakeServer>[0]) {
  const server = await fakeServer(routes);
  servers.push(server);
  return server;
}

/** An ssr trainer service that loads a checkpoint at its version (or, `stuck`, keeps reporting its old one). */
function ssrRoutes(state: { version: number; stuck?: boolean }): Parameters<typeof fakeServer>[0] {
  return {
    'GET /health': () => [200, { status: 'ok', policy_version: state.version }],
    'POST /update_weights_from_disk': (body) => {
      const path = (body as { model_path: string }).model_path;
      if (!path.startsWith('/ckpt/')) return [400, { success: false, message: `cannot load ${path}: checkpoint directory ${path} does not exist` }];
      if (!state.stuck) state.version = Number(path.split('/v').pop());
      return [200, { success: true, message: 'loaded', policy_version: state.version }];
    },
  };
}

describe('detectSampler (--sampler-sync auto)', () => {
  it.each<[string, Record<string, FakeAnswer>, string]>([
    ['the ssr service by its /health policy_version', { 'GET /health': [200, { policy_version: 0 }] }, 'ssr'],
    ['SGLang by /get_server_info', { 'GET /health': [200, ''], 'GET /get_server_info': [200, { model_path: 'm' }] }, 'sglang'],
    ['vLLM by /version', { 'GET /health': [200, ''], 'GET /version': [200, { version: '0.11.0' }] }, 'vllm-lora'],
    ['vLLM by owned_by', { 'GET /v1/models': [200, { data: [{ id: 'm', owned_by: 'vllm' }] }] }, 'vllm-lora'],
  ])('recognises %s', async (_name, routes, kind) => {
    const server = await serve(routes);
    expect(await detectSampler(`${server.url}/v1/`)).toBe(kind);
  });

  it('refuses a server it cannot place, naming the flag to pass', async () => {
    const server = await serve({ 'GET /v1/models': [200, { data: [{ id: 'gpt', owned_by: 'openai' }] }] });
    await expect(detectSampler(server.url)).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(/cannot tell what serves .* pass --sampler-sync/) });
  });
});

describe('syncing the sampler', () => {
  it('ssr: loads the checkpoint, then confirms the version on /health', async () => {
    const server = await serve(ssrRoutes({ version: 2 }));
    expect(await syncSsrService(server.url, FULL)).toEqual({ version: 3 });
    expect(server.calls.map((call) => call.route)).toEqual(['POST /update_weights_from_disk', 'GET /health']);
    expect(server.calls[0]!.body).toEqual({ model_path: '/ckpt/v3', load_format: 'auto' });
  });

  it.each<[string, TrainerCheckpoint, Parameters<typeof fakeServer>[0], RegExp]>([
    ['a 404 on the route', FULL, { 'GET /health': [200, { policy_version: 2 }] }, /POST \/update_weights_from_disk\): HTTP 404.*Start the sampler as an ssr trainer service/],
    ['a path the sampler cannot read', { ...FULL, path: '/elsewhere/v3' }, ssrRoutes({ version: 2 }), /HTTP 400: .*does not exist.*must be readable at that path by the sampler/],
    ['a version that does not move', FULL, ssrRoutes({ version: 2, stuck: true }), /\(GET \/health\): after loading version 3 it reports policy_version 2\. The version did not move/],
  ])('ssr: %s stops the run with the URL, the route and what to do', async (_name, checkpoint, routes, message) => {
    const server = await serve(routes);
    const failure = syncSsrService(server.url, checkpoint);
    await expect(failure).rejects.toMatchObject({ code: 'policy-unavailable', retryable: false, message: expect.stringMatching(message) });
    await expect(failure).rejects.toThrow(`the sampler at ${server.url} did not load the new weights`);
  });

  it('sglang with weight versions: sends the version and reads it back', async () => {
    let version = '2';
    const server = await serve({
      'GET /get_weight_version': () => [200, { weight_version: version }],
      'POST /update_weights_from_disk': (body) => {
        version = (body as { weight_version: string }).weight_version;
        return [200, { success: true, message: 'Succeeded to update model weights.', num_paused_requests: 0 }];
      },
    });
    expect(await syncSglang(server.url, FULL)).toEqual({ version: 3 });
    expect(server.calls[1]).toEqual({ route: 'POST /update_weights_from_disk', body: { model_path: '/ckpt/v3', weight_version: '3' } });
  });

  it('sglang without weight versions: taken at its success', async () => {
    const server = await serve({ 'POST /update_weights_from_disk': [200, { success: true, message: 'ok' }] });
    expect(await syncSglang(server.url, FULL)).toEqual({ version: 3 });
    expect(server.calls[1]!.body).toEqual({ model_path: '/ckpt/v3' });
  });

  it.each<[string, TrainerCheckpoint, Parameters<typeof fakeServer>[0], RegExp]>([
    ['a LoRA checkpoint', LORA, {}, /loads full weights.*--sampler-sync vllm-lora/],
    ['a refused load', FULL, { 'POST /update_weights_from_disk': [400, { success: false, message: 'Failed to get weights iterator: /ckpt/v3 not found' }] }, /HTTP 400: .*not found.*readable at that path by SGLang/],
    ['a 404 on the route', FULL, {}, /\(POST \/update_weights_from_disk\): HTTP 404/],
    ['a version that does not move', FULL, { 'GET /get_weight_version': [200, { weight_version: '2' }], 'POST /update_weights_from_disk': [200, { success: true }] }, /reports "2"\. The version did not move/],
  ])('sglang: %s is a clear error', async (_name, checkpoint, routes, message) => {
    const server = await serve(routes);
    await expect(syncSglang(server.url, checkpoint)).rejects.toMatchObject({ code: 'policy-unavailable', message: expect.stringMatching(message) });
  });

  it('vllm-lora: loads the adapter as ssr-<run>-v<N> and samples by that name once /v1/models lists it', async () => {
    const models = [{ id: 'base', owned_by: 'vllm' }];
    const server = await serve({
      'POST /v1/load_lora_adapter': (body) => {
        models.push({ id: (body as { lora_name: string }).lora_name, owned_by: 'vllm' });
        return [200, "Success: LoRA adapter 'ssr-v3' added successfully."];
      },
      'GET /v1/models': () => [200, { data: models }],
    });
    expect(await syncVllmLora(server.url, LORA, 'run1')).toEqual({ version: 3, model: 'ssr-run1-v3' });
    expect(server.calls[0]!.body).toEqual({ lora_name: 'ssr-run1-v3', lora_path: '/ckpt/v3', load_inplace: true });
  });

  it.each<[string, TrainerCheckpoint, Parameters<typeof fakeServer>[0], RegExp]>([
    ['full weights', FULL, {}, /vLLM loads only LoRA adapters at runtime.*--lora/],
    ['runtime loading off (404)', LORA, {}, /HTTP 404.*VLLM_ALLOW_RUNTIME_LORA_UPDATING=True/],
    ['an adapter that is not listed after loading', LORA, { 'POST /v1/load_lora_adapter': [200, 'Success'], 'GET /v1/models': [200, { data: [{ id: 'base' }] }] }, /does not list ssr-run1-v3\. The version did not move/],
  ])('vllm-lora: %s is a clear error', async (_name, checkpoint, routes, message) => {
    const server = await serve(routes);
    await expect(syncVllmLora(server.url, checkpoint, 'run1')).rejects.toMatchObject({ code: 'policy-unavailable', message: expect.stringMatching(message) });
  });
});

describe('publishWeights (after a train step)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ssr-sync-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A toy trainer at version 1 and a route to `samplerUrl`. */
  async function trained(kind: 'full' | 'lora', samplerUrl: string | null, samplerSync: 'auto' | 'ssr' | 'sglang' | 'vllm-lora' | 'none' = 'auto') {
    const trainer = await toyTrainer(dir, { kind });
    servers.push(trainer);
    trainer.train();
    return { trainer, route: { trainerUrl: trainer.url, samplerUrl, samplerSync, runTag: 'run1', maxStaleness: 1 } };
  }

  it('the trainer sampling itself serves its own version: nothing is saved, loaded or checked', async () => {
    const trainer = await serve({});
    expect(await publishWeights({ trainerUrl: trainer.url, samplerUrl: `${trainer.url}/v1`, samplerSync: 'auto', runTag: 'run1', maxStaleness: 1 }, 4)).toEqual({ version: 4 });
    expect(await publishWeights({ trainerUrl: trainer.url, samplerUrl: null, samplerSync: 'auto', runTag: 'run1', maxStaleness: 1 }, 4)).toEqual({ version: 4 });
    expect(await checkStartingSampler({ trainerUrl: trainer.url, samplerUrl: null, samplerSync: 'auto', runTag: 'run1', maxStaleness: 1 })).toEqual({ version: 0 });
    expect(trainer.calls).toEqual([]);
  });

  it('a separate sampler gets a weights-only export, and the trainer keeps only the exports a sampler may still read', async () => {
    const sampler = await toySsr(toyWeights(1));
    servers.push(sampler);
    const { trainer, route } = await trained('full', sampler.url, 'ssr');
    expect(await publishWeights(route, 1)).toEqual({ version: 1 });
    // No optimizer state for a sampler; kept: the new export, the served one and one more that --max-staleness 1 still accepts samples of.
    expect(trainer.calls.find((call) => call.route === 'POST /weights/save')?.body).toEqual({ weights_only: true, keep: 3 });
  });

  it('a trainer whose disk is full stops the sync, naming the path and what to do, before the sampler is asked', async () => {
    const message = 'no space left to write the checkpoint /ckpt/sampler/v3 (No space left on device): nothing was saved. Free space on that disk';
    const trainer = await serve({ 'POST /weights/save': [507, { error: { message, type: 'insufficient_storage', code: 507 } }] });
    const sampler = await serve({});
    const failure = publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', runTag: 'run1', maxStaleness: 0 }, 3);
    await expect(failure).rejects.toMatchObject({ code: 'policy-unavailable', retryable: false, message: expect.stringContaining(`the trainer's disk is full: POST ${trainer.url}/weights/save answered HTTP 507: ${message}`) });
    expect(sampler.calls).toEqual([]);
  });

  it('ssr: the sampler loads the checkpoint, then its completions are checked against the trainer\'s log-probs', async () => {
    const sampler = await toySsr(toyWeights(1));
    servers.push(sampler);
    const { trainer, route } = await trained('full', sampler.url, 'auto');
    expect(await publishWeights(route, 1)).toEqual({ version: 1 });
    expect(trainer.calls.map((call) => call.route)).toEqual(['POST /weights/save', 'POST /tokenize', 'POST /logprobs']);
    expect(sampler.calls.map((call) => call.route)).toContain('POST /v1/completions');
  });

  it('ssr: a service that reports the version but kept its weights is caught on the completions route', async () => {
    const sampler = await toySsr(toyWeights(1), { 'POST /update_weights_from_disk': () => [200, { success: true }], 'GET /health': [200, { policy_version: 1 }] });
    servers.push(sampler);
    const { route } = await trained('full', sampler.url, 'ssr');
    await expect(publishWeights(route, 1)).rejects.toMatchObject({
      code: 'policy-unavailable', retryable: false,
      message: expect.stringMatching(new RegExp(`the sampler at ${sampler.url} does not serve the trainer's weights \\(POST /v1/completions\\): it reports policy_version 0`)),
    });
  });

  it('sglang: a load answered with success and the new weight_version, but the old weights kept, is caught on /generate', async () => {
    const sampler = await toySglang(toyWeights(1), { ignoreLoads: true });
    servers.push(sampler);
    const { route } = await trained('full', sampler.url, 'auto');
    await expect(publishWeights(route, 1)).rejects.toThrow(
      new RegExp(`the sampler at ${sampler.url} does not serve the trainer's weights \\(POST /generate\\): the log-probs it returned for 16 sampled tokens differ from the trainer's .*Start the sampler from the trainer's base model`),
    );
    expect(sampler.state.weightVersion).toBe('1');
  });

  it('sglang: a load that took passes the check', async () => {
    const sampler = await toySglang(toyWeights(1));
    servers.push(sampler);
    const { route } = await trained('full', sampler.url, 'sglang');
    expect(await publishWeights(route, 1)).toEqual({ version: 1 });
  });

  it('vllm-lora: a vLLM that outlived earlier runs keeps their adapters; this run\'s version gets its own name and serves its weights', async () => {
    const vllm = await toyVllm(toyWeights(1));
    servers.push(vllm);
    const stale = toyWeights(9);
    vllm.preload('ssr-v1', stale); // what the old naming loaded, and an earlier run's name for the same version
    vllm.preload(adapterName('run0', 1), stale);
    const { route } = await trained('lora', vllm.url, 'auto');
    expect(await publishWeights(route, 1)).toEqual({ version: 1, model: 'ssr-run1-v1' });
    expect(vllm.adapters.get('ssr-run1-v1')).toEqual(JSON.parse(readFileSync(join(dir, 'v1', 'weights.json'), 'utf8')));
  });

  it.each([
    ['an older vLLM (no load_inplace) has it unloaded and loaded afresh', false, ['POST /v1/load_lora_adapter', 'POST /v1/unload_lora_adapter', 'POST /v1/load_lora_adapter']],
    ['a vLLM with load_inplace replaces it in place', true, ['POST /v1/load_lora_adapter']],
  ])('vllm-lora: a resume that retrains a version this run loaded before: %s, never taken as loaded', async (_name, inplace, routes) => {
    const vllm = await toyVllm(toyWeights(1), { inplace });
    servers.push(vllm);
    vllm.preload('ssr-run1-v1', toyWeights(9)); // the version 1 trained before the trainer was restarted
    const { route } = await trained('lora', vllm.url, 'vllm-lora');
    expect(await publishWeights(route, 1)).toEqual({ version: 1, model: 'ssr-run1-v1' });
    expect(vllm.calls.map((call) => call.route).filter((r) => r.includes('lora_adapter'))).toEqual(routes);
    expect(vllm.adapters.get('ssr-run1-v1')).toEqual(JSON.parse(readFileSync(join(dir, 'v1', 'weights.json'), 'utf8')));
  });

  it('vllm-lora: an adapter that cannot be unloaded stops the run naming the route', async () => {
    const vllm = await toyVllm(toyWeights(1));
    servers.push(vllm);
    vllm.preload('ssr-run1-v1', toyWeights(9));
    const { route } = await trained('lora', vllm.url, 'vllm-lora');
    const proxy = await serve({
      'POST /v1/load_lora_adapter': [400, { object: 'error', message: "The lora adapter 'ssr-run1-v1' has already been loaded.", code: 400 }],
      'POST /v1/unload_lora_adapter': [500, { object: 'error', message: 'engine dead', code: 500 }],
    });
    await expect(publishWeights({ ...route, samplerUrl: proxy.url }, 1)).rejects.toThrow(/\(POST \/v1\/unload_lora_adapter\): ssr-run1-v1 was already loaded .*HTTP 500.*Restart vLLM/);
  });

  it('vllm-lora: the check catches a vLLM serving other weights under the run\'s adapter name (what "already loaded" used to let through)', async () => {
    const vllm = await toyVllm(toyWeights(1));
    servers.push(vllm);
    const { trainer } = await trained('lora', vllm.url);
    vllm.preload('ssr-run1-v1', toyWeights(9));
    const check = verifySampler({ samplerUrl: vllm.url, kind: 'vllm-lora', model: 'ssr-run1-v1', trainerUrl: trainer.url, version: 1 });
    await expect(check).rejects.toThrow(new RegExp(`the sampler at ${vllm.url} does not serve the trainer's weights \\(POST /v1/completions, model ssr-run1-v1\\): .*differ .*an adapter another run left under this name`));
  });

  it('processed log-probs from a vLLM that applies repetition_penalty 1.05 whatever the request says are caught', async () => {
    const vllm = await toyVllm(toyWeights(1), { forcedPenalty: 1.05, logprobs: 'processed', inplace: true });
    servers.push(vllm);
    const { route } = await trained('lora', vllm.url, 'vllm-lora');
    await expect(publishWeights(route, 1)).rejects.toThrow(/differ from the trainer's .*with every penalty sent neutral.*alters the distribution regardless of the request/);
  });

  it('--sampler-check-tolerance: a looser tolerance lets that difference (about 0.1 here) through', async () => {
    const vllm = await toyVllm(toyWeights(1), { forcedPenalty: 1.05, logprobs: 'processed' });
    servers.push(vllm);
    const { route } = await trained('lora', vllm.url, 'vllm-lora');
    expect(await publishWeights({ ...route, tolerance: 0.5 }, 1)).toEqual({ version: 1, model: 'ssr-run1-v1' });
  });

  it('a generation-config repetition_penalty is overridden: the check sends every penalty neutral and passes', async () => {
    const vllm = await toyVllm(toyWeights(1), { generationConfig: { repetition_penalty: 1.05 }, logprobs: 'processed' });
    servers.push(vllm);
    const { route } = await trained('lora', vllm.url, 'vllm-lora');
    expect(await publishWeights(route, 1)).toEqual({ version: 1, model: 'ssr-run1-v1' });
    expect(vllm.penalties).toEqual([1]);
  });

  it('at the start (version 0): a sampler serving another base model than the trainer is refused; the same one passes', async () => {
    const trainer = await toyTrainer(dir);
    const [same, other] = [await toyVllm(toyWeights(1)), await toyVllm(toyWeights(2))];
    servers.push(trainer, same, other);
    const route = (samplerUrl: string) => ({ trainerUrl: trainer.url, samplerUrl, samplerSync: 'vllm-lora' as const, runTag: 'run1', maxStaleness: 1 });
    expect(await checkStartingSampler(route(same.url))).toEqual({ version: 0 });
    await expect(checkStartingSampler(route(other.url))).rejects.toThrow(/\(POST \/v1\/completions, model base\): the log-probs .* differ/);
    expect(await checkStartingSampler({ ...route(other.url), samplerSync: 'none' })).toBeNull();
  });

  it('a trainer without POST /logprobs stops the run saying what the check needs', async () => {
    const sampler = await toySsr(toyWeights(1));
    const trainer = await serve({ 'POST /tokenize': [200, { tokens: [1, 2, 3] }], 'POST /weights/save': [200, { path: '/ckpt/v3', version: 3, kind: 'full' }] });
    servers.push(sampler);
    await expect(publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', runTag: 'run1', maxStaleness: 1 }, 3)).rejects.toThrow(/HTTP 400: .*cannot load/);
    await expect(checkStartingSampler({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', runTag: 'run1', maxStaleness: 1 })).rejects.toThrow(
      /did not score the sampler check's tokens \(POST \/logprobs\): HTTP 404.*python3 -m ssr_trainer.service/,
    );
  });

  it('--sampler-sync none leaves a separate sampler alone and the policy at its version', async () => {
    const trainer = await serve({});
    const sampler = await serve({});
    expect(await publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'none', runTag: 'run1', maxStaleness: 1 }, 3)).toBeNull();
    expect([...trainer.calls, ...sampler.calls]).toEqual([]);
  });

  it('a trainer that saves another version than it trained is an error', async () => {
    const trainer = await serve({ 'POST /weights/save': [200, { path: '/ckpt/v5', version: 5, steps: 5, kind: 'full' }] });
    const sampler = await serve(ssrRoutes({ version: 2 }));
    await expect(publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', runTag: 'run1', maxStaleness: 1 }, 3)).rejects.toThrow(/saved version 5, but its step answered version 3/);
    expect(sampler.calls).toEqual([]);
  });

  it('a trainer that cannot save is an error naming the route', async () => {
    const trainer = await serve({ 'POST /weights/save': [400, { error: { message: '/x exists and is not a checkpoint' } }] });
    const sampler = await serve(ssrRoutes({ version: 2 }));
    await expect(publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', runTag: 'run1', maxStaleness: 1 }, 3)).rejects.toThrow(/did not save its weights: HTTP 400 from POST .*\/weights\/save/);
  });
});
