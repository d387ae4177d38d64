import { afterEach, describe, expect, it } from 'vitest';
import { runPreflight } from '../../src/policy/preflight/run-preflight.js';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeOpenAIServerOptions } from '../doubles/fake-openai-server.js';
import { rejection } from '../helpers/rejection.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function tokensPreflight(options: FakeOpenAIServerOptions) {
  const server = await startFakeOpenAIServer({ model: 'Qwen/Qwen3-8B', ...options });
  servers.push(server);
  return { server, run: () => runPreflight({ endpoint: { root: server.baseUrl }, mode: 'tokens' }) };
}

describe("preflight: a sampler's generation defaults (tokens mode)", () => {
  it('SGLang whose --preferred-sampling-params set what ssr does not send: refused, naming the route, the parameters and the fix', async () => {
    const { server, run } = await tokensPreflight({ flavor: 'sglang', generationDefaults: { preferredSamplingParams: { min_new_tokens: 16, logit_bias: { '42': 5 }, repetition_penalty: 1.1 } } });
    const error = await rejection(run());
    expect(error.code).toBe('usage');
    expect(error.message).toContain(`${server.baseUrl}/get_server_info: SGLang applies preferred_sampling_params min_new_tokens 16, logit_bias {"42":5} to every request`);
    expect(error.message).toContain('--preferred-sampling-params');
    // repetition_penalty is sent explicitly: it is not among the refused.
    expect(error.message).not.toMatch(/repetition_penalty 1\.1/);
    // A newer SGLang that serves only /server_info (the old route is its deprecated alias) is read there.
    const current = await tokensPreflight({ flavor: 'sglang', generationDefaults: { sglangRoutes: 'current', preferredSamplingParams: { ebnf: 'root ::= "a"' } } });
    expect((await rejection(current.run())).message).toContain(`${current.server.baseUrl}/server_info: SGLang applies preferred_sampling_params ebnf "root ::= \\"a\\""`);
  });

  it('SGLang whose defaults ssr overrides (penalties, temperature; empty stop lists): accepted, with notes', async () => {
    const { server, run } = await tokensPreflight({
      flavor: 'sglang',
      generationDefaults: { preferredSamplingParams: { repetition_penalty: 1.1, temperature: 0.7, stop: [], min_new_tokens: 0, n: 1 }, samplingDefaults: 'model' },
    });
    const facts = await run();
    expect(facts.notes).toEqual([
      `${server.baseUrl}/get_server_info: preferred_sampling_params repetition_penalty 1.1, temperature 0.7 never apply: ssr sends each explicitly (temperature / top-p / top-k as configured, every penalty neutral)`,
      expect.stringContaining(`${server.baseUrl}/get_server_info: sampling_defaults "model" fills temperature, top_p, top_k, min_p and repetition_penalty`),
    ]);
    // --sampling-defaults openai and no preferred params: nothing to say.
    const plain = await tokensPreflight({ flavor: 'sglang', generationDefaults: { samplingDefaults: 'openai' } });
    expect((await plain.run()).notes).toEqual([]);
  });

  it('vLLM: says which defaults it could not read, or what its dev-mode /server_info reports', async () => {
    const hidden = await tokensPreflight({ flavor: 'vllm' });
    expect((await hidden.run()).notes).toEqual([
      `${hidden.server.baseUrl} (vLLM) does not report its generation defaults (only its start-up log, or /server_info with VLLM_SERVER_DEV_MODE=1), so ssr could not read them: ` +
        'repetition_penalty, temperature, top_k, top_p, min_p may come from the model\'s generation config, and ssr sends each explicitly, which vLLM takes over its defaults (--generation-config vllm turns them off)',
    ]);
    const dev = await tokensPreflight({ flavor: 'vllm', generationDefaults: { vllm: { devMode: true, generationConfig: 'auto', override: { repetition_penalty: 1.05 } } } });
    expect((await dev.run()).notes).toEqual([expect.stringContaining(`${dev.server.baseUrl}/server_info?config_format=json: generation_config "auto", overridden by {"repetition_penalty":1.05}: `)]);
    const off = await tokensPreflight({ flavor: 'vllm', generationDefaults: { vllm: { devMode: true, generationConfig: 'vllm' } } });
    expect((await off.run()).notes).toEqual([expect.stringContaining('generation_config "vllm": no defaults from the model\'s generation config')]);
  });
});
