import { afterEach, describe, expect, it } from 'vitest';
import { createRunPolicy, resolvedRunSettings } from '../../../src/cli/run-provenance.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../doubles/fake-openai-server.js';

describe('createRunPolicy: the model server run.json records, from a real preflight over HTTP', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each([
    ['vllm', 'vllm'],
    ['sglang', 'sglang'],
    [undefined, 'openai-compatible'],
  ] as const)('a %s server is recorded as %s with its model and context', async (flavor, kind) => {
    server = await startFakeOpenAIServer({ model: 'qwen-32k', maxModelLen: 32_768, ...(flavor ? { flavor } : {}) });
    const { server: identity } = await createRunPolicy({ policy: 'openai', baseUrl: server.baseUrl, maxContext: flavor ? undefined : 16_384 });
    expect(identity).toMatchObject({ kind, root: server.baseUrl, model: 'qwen-32k', models: ['qwen-32k'], toolProtocol: 'native' });
    expect(identity!.context?.tokens).toBe(flavor ? 32_768 : 16_384);
  });

  it('a model-free policy has no server', async () => {
    expect((await createRunPolicy({ policy: 'procedural' })).server).toBeNull();
  });
});

describe('resolvedRunSettings', () => {
  it('keeps every flag but the API key, which it records as set or unset only', () => {
    const resolved = resolvedRunSettings({ steps: 3, apiKey: 'sk-secret', logTo: ['wandb'] }, { backend: 'docker' });
    expect(JSON.stringify(resolved)).not.toContain('sk-secret');
    expect(resolved).toMatchObject({ flags: { steps: 3, logTo: ['wandb'] }, apiKey: 'set', backend: 'docker' });
    expect(Object.keys(resolved.env as object)).toEqual(['OPENAI_BASE_URL', 'SSR_HOME', 'SSR_PYTHON', 'WANDB_MODE', 'WANDB_PROJECT']);
  });
});
