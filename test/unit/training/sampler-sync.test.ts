import { afterEach, describe, expect, it } from 'vitest';
import { detectSampler } from '../../../src/training/detect-sampler.js';
import { publishWeights } from '../../../src/training/publish-weights.js';
import { syncSampler } from '../../../src/training/sampler-sync.js';
import { syncSglang } from '../../../src/training/sync-sglang.js';
import { syncSsrService } from '../../../src/training/sync-ssr.js';
import { syncVllmLora } from '../../../src/training/sync-vllm-lora.js';
import type { TrainerCheckpoint } from '../../../src/training/trainer-checkpoint.js';
import { fakeServer, type FakeAnswer } from './fake-server.js';

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

  it('vllm-lora: loads the adapter as ssr-v<N> and samples by that name once /v1/models lists it', async () => {
    const models = [{ id: 'base', owned_by: 'vllm' }];
    const server = await serve({
      'POST /v1/load_lora_adapter': (body) => {
        models.push({ id: (body as { lora_name: string }).lora_name, owned_by: 'vllm' });
        return [200, "Success: LoRA adapter 'ssr-v3' added successfully."];
      },
      'GET /v1/models': () => [200, { data: models }],
    });
    expect(await syncVllmLora(server.url, LORA)).toEqual({ version: 3, model: 'ssr-v3' });
    expect(server.calls[0]!.body).toEqual({ lora_name: 'ssr-v3', lora_path: '/ckpt/v3' });
  });

  it.each<[string, TrainerCheckpoint, Parameters<typeof fakeServer>[0], RegExp]>([
    ['full weights', FULL, {}, /vLLM loads only LoRA adapters at runtime.*--lora/],
    ['runtime loading off (404)', LORA, {}, /HTTP 404.*VLLM_ALLOW_RUNTIME_LORA_UPDATING=True/],
    ['an adapter that is not listed after loading', LORA, { 'POST /v1/load_lora_adapter': [200, 'Success'], 'GET /v1/models': [200, { data: [{ id: 'base' }] }] }, /does not list ssr-v3\. The version did not move/],
  ])('vllm-lora: %s is a clear error', async (_name, checkpoint, routes, message) => {
    const server = await serve(routes);
    await expect(syncVllmLora(server.url, checkpoint)).rejects.toMatchObject({ code: 'policy-unavailable', message: expect.stringMatching(message) });
  });

  it('auto detects the kind and syncs it', async () => {
    const server = await serve(ssrRoutes({ version: 0 }));
    expect(await syncSampler(server.url, 'auto', FULL)).toEqual({ version: 3 });
  });
});

describe('publishWeights (after a train step)', () => {
  it('the trainer sampling itself serves its own version: nothing is saved or loaded', async () => {
    const trainer = await serve({});
    expect(await publishWeights({ trainerUrl: trainer.url, samplerUrl: `${trainer.url}/v1`, samplerSync: 'auto', maxStaleness: 1 }, 4)).toEqual({ version: 4 });
    expect(await publishWeights({ trainerUrl: trainer.url, samplerUrl: null, samplerSync: 'auto', maxStaleness: 1 }, 4)).toEqual({ version: 4 });
    expect(trainer.calls).toEqual([]);
  });

  it('a separate sampler gets a weights-only export the trainer saved; its confirmed version is returned', async () => {
    const trainer = await serve({ 'POST /weights/save': [200, { path: '/ckpt/v3', version: 3, steps: 3, kind: 'full', resumable: false, removed: [] }] });
    const sampler = await serve(ssrRoutes({ version: 2 }));
    expect(await publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', maxStaleness: 1 }, 3)).toEqual({ version: 3 });
    // No optimizer state for a sampler; the exports kept: the new one, the served one and one more that --max-staleness 1 still accepts samples of.
    expect(trainer.calls).toEqual([{ route: 'POST /weights/save', body: { weights_only: true, keep: 3 } }]);
  });

  it('a trainer whose disk is full stops the sync, naming the path and what to do, before the sampler is asked', async () => {
    const message = 'no space left to write the checkpoint /ckpt/sampler/v3 (No space left on device): nothing was saved. Free space on that disk';
    const trainer = await serve({ 'POST /weights/save': [507, { error: { message, type: 'insufficient_storage', code: 507 } }] });
    const sampler = await serve(ssrRoutes({ version: 2 }));
    const failure = publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', maxStaleness: 0 }, 3);
    await expect(failure).rejects.toMatchObject({ code: 'policy-unavailable', retryable: false, message: expect.stringContaining(`the trainer's disk is full: POST ${trainer.url}/weights/save answered HTTP 507: ${message}`) });
    expect(sampler.calls).toEqual([]);
  });

  it('a checkpoint already saved this step (--save-every) is the one the sampler loads: no second save', async () => {
    const trainer = await serve({});
    const sampler = await serve(ssrRoutes({ version: 2 }));
    const saved = { path: '/ckpt/v3', version: 3, kind: 'full' as const };
    expect(await publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', maxStaleness: 1 }, 3, saved)).toEqual({ version: 3 });
    expect(trainer.calls).toEqual([]);
  });

  it('--sampler-sync none leaves a separate sampler alone and the policy at its version', async () => {
    const trainer = await serve({});
    const sampler = await serve({});
    expect(await publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'none', maxStaleness: 1 }, 3)).toBeNull();
    expect([...trainer.calls, ...sampler.calls]).toEqual([]);
  });

  it('a trainer that saves another version than it trained is an error', async () => {
    const trainer = await serve({ 'POST /weights/save': [200, { path: '/ckpt/v5', version: 5, steps: 5, kind: 'full' }] });
    const sampler = await serve(ssrRoutes({ version: 2 }));
    await expect(publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', maxStaleness: 1 }, 3)).rejects.toThrow(/saved version 5, but its step answered version 3/);
    expect(sampler.calls).toEqual([]);
  });

  it('a trainer that cannot save is an error naming the route', async () => {
    const trainer = await serve({ 'POST /weights/save': [400, { error: { message: '/x exists and is not a checkpoint' } }] });
    const sampler = await serve(ssrRoutes({ version: 2 }));
    await expect(publishWeights({ trainerUrl: trainer.url, samplerUrl: sampler.url, samplerSync: 'ssr', maxStaleness: 1 }, 3)).rejects.toThrow(/did not save its weights: HTTP 400 from POST .*\/weights\/save/);
  });
});
