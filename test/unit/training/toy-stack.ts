import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeServer, type FakeAnswer } from './fake-server.js';

/**
 * A toy trainer and toy samplers (vLLM with runtime LoRA, SGLang, the ssr service) over one toy
 * model whose weights are real files: a trainer saves them where it is told, a sampler reads them
 * from the path a load names, and each serves log-probs computed from the weights it holds. The
 * routes, bodies and error answers are the real servers' (vLLM 0.11 serving_models.py, SGLang
 * 0.4 /update_weights_from_disk and /generate, trainer/ssr_trainer/service.py), so what ssr is
 * told is what it would be told by them.
 */

/** The toy model: one logit per token, whatever the context, spread as widely as a language model's (±8). */
export type ToyWeights = number[];
const VOCAB = 32;

export const toyWeights = (seed: number): ToyWeights => Array.from({ length: VOCAB }, (_, i) => Math.sin(seed * 7.1 + i * 1.3) * 8);

/** Log-probs of the next token; `penalty` ≠ 1 is vLLM's repetition penalty on every token already seen. */
export function toyLogprobs(weights: ToyWeights, seen: readonly number[], penalty = 1): number[] {
  const logits = weights.map((logit, id) => (penalty !== 1 && seen.includes(id) ? (logit > 0 ? logit / penalty : logit * penalty) : logit));
  const top = Math.max(...logits);
  const norm = Math.log(logits.reduce((sum, logit) => sum + Math.exp(logit - top), 0)) + top;
  return logits.map((logit) => logit - norm);
}

/** Samples `count` tokens after `prompt` (a seeded LCG), with the log-probs a server returns: raw, or after its penalty (`processed`). */
function sample(weights: ToyWeights, prompt: number[], count: number, seed: number, penalty: number, mode: 'raw' | 'processed'): { ids: number[]; logprobs: number[] } {
  let state = (seed * 2654435761 + 1) >>> 0;
  const ids: number[] = [];
  const logprobs: number[] = [];
  for (let i = 0; i < count; i++) {
    const seen = [...prompt, ...ids];
    const processed = toyLogprobs(weights, seen, penalty);
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    let u = state / 2 ** 32;
    let id = 0;
    while (id < VOCAB - 1 && (u -= Math.exp(processed[id]!)) > 0) id++;
    ids.push(id);
    logprobs.push((mode === 'processed' ? processed : toyLogprobs(weights, seen))[id]!);
  }
  return { ids, logprobs };
}

const readWeights = (path: string): ToyWeights => JSON.parse(readFileSync(join(path, 'weights.json'), 'utf8')) as ToyWeights;
const num = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);
type Routes = Record<string, FakeAnswer | ((body: unknown) => FakeAnswer)>;

/** The trainer service's routes ssr uses, over toy weights: `train()` moves them and the version. */
export async function toyTrainer(dir: string, options: { seed?: number; kind?: 'full' | 'lora' } = {}) {
  const state = { weights: toyWeights(options.seed ?? 1), version: 0 };
  const server = await fakeServer({
    'GET /health': () => [200, { status: 'ok', policy_version: state.version }],
    'POST /tokenize': (body) => [200, { tokens: [...String((body as { prompt: string }).prompt)].map((c) => c.charCodeAt(0) % VOCAB) }],
    'POST /logprobs': (body) => {
      const { prompt, continuation } = body as { prompt: number[]; continuation: number[] };
      const logprobs = continuation.map((id, i) => toyLogprobs(state.weights, [...prompt, ...continuation.slice(0, i)])[id]!);
      return [200, { logprobs, policy_version: state.version }];
    },
    'POST /weights/save': () => {
      const path = join(dir, `v${state.version}`);
      mkdirSync(path, { recursive: true });
      writeFileSync(join(path, 'weights.json'), JSON.stringify(state.weights));
      return [200, { path, version: state.version, steps: state.version, kind: options.kind ?? 'lora' }];
    },
  });
  const train = () => {
    state.weights = state.weights.map((logit, i) => logit + (i % 3 === 0 ? 0.8 : -0.4));
    state.version++;
  };
  return { ...server, state, train };
}

export interface ToyVllmOptions {
  /** vLLM ≥ 0.11 replaces an adapter of the same name with `load_inplace: true`; older ones ignore the field. */
  inplace?: boolean;
  /** `--generation-config auto` defaults: applied when a request leaves the field out. */
  generationConfig?: { repetition_penalty?: number };
  /** A server that applies this penalty whatever the request says. */
  forcedPenalty?: number;
  /** `--logprobs-mode`: raw_logprobs (default) or processed_logprobs. */
  logprobs?: 'raw' | 'processed';
}

/** vLLM serving a base model with runtime LoRA loading (VLLM_ALLOW_RUNTIME_LORA_UPDATING=True). */
export async function toyVllm(base: ToyWeights, options: ToyVllmOptions = {}) {
  const adapters = new Map<string, ToyWeights>();
  const penalties: number[] = [];
  const error = (status: number, message: string, type = 'BadRequestError'): FakeAnswer => [status, { object: 'error', message, type, param: null, code: status }];
  const server = await fakeServer({
    'GET /version': [200, { version: '0.11.0' }],
    'GET /v1/models': () => [200, { object: 'list', data: [{ id: 'base', owned_by: 'vllm', root: 'base', parent: null }, ...[...adapters.keys()].map((id) => ({ id, owned_by: 'vllm', root: '/adapters', parent: 'base' }))] }],
    'POST /v1/load_lora_adapter': (body) => {
      const { lora_name: name, lora_path: path, load_inplace: inplace } = body as { lora_name: string; lora_path: string; load_inplace?: boolean };
      if (adapters.has(name) && !(inplace && options.inplace)) return error(400, `The lora adapter '${name}' has already been loaded. If you want to load the adapter in place, set 'load_inplace' to True.`);
      try {
        adapters.set(name, readWeights(path));
      } catch {
        return error(400, `Loading lora ${name} failed: No adapter found for ${path}`);
      }
      return [200, `Success: LoRA adapter '${name}' added successfully.`];
    },
    'POST /v1/unload_lora_adapter': (body) => {
      const name = (body as { lora_name: string }).lora_name;
      if (!adapters.delete(name)) return error(404, `The lora adapter '${name}' cannot be found.`, 'NotFoundError');
      return [200, `Success: LoRA adapter '${name}' removed successfully.`];
    },
    'POST /v1/completions': (body) => {
      const request = body as Record<string, unknown>;
      const model = (request.model as string | undefined) ?? 'base';
      const weights = model === 'base' ? base : adapters.get(model);
      if (weights === undefined) return error(404, `The model \`${model}\` does not exist.`, 'NotFoundError');
      const penalty = options.forcedPenalty ?? num(request.repetition_penalty, options.generationConfig?.repetition_penalty ?? 1);
      penalties.push(penalty);
      const { ids, logprobs } = sample(weights, request.prompt as number[], num(request.max_tokens, 16), num(request.seed, 0), penalty, options.logprobs ?? 'raw');
      return [200, { object: 'text_completion', model, choices: [{ index: 0, text: '', logprobs: { tokens: ids.map((id) => `token_id:${id}`), token_logprobs: logprobs }, finish_reason: 'length' }] }];
    },
  });
  /** Keep an adapter loaded under `name`, as a vLLM that outlived the run that loaded it does. */
  const preload = (name: string, weights: ToyWeights) => void adapters.set(name, weights);
  return { ...server, adapters, penalties, preload };
}

/** SGLang with `/update_weights_from_disk` (and weight versions); `ignoreLoads`: answers success but keeps its weights. */
export async function toySglang(weights: ToyWeights, options: { ignoreLoads?: boolean } = {}) {
  const state = { weights, weightVersion: 'default' };
  const server = await fakeServer({
    'GET /get_server_info': [200, { version: '0.4.9' }],
    'GET /get_weight_version': () => [200, { weight_version: state.weightVersion }],
    'POST /update_weights_from_disk': (body) => {
      const { model_path: path, weight_version: version } = body as { model_path: string; weight_version?: string };
      try {
        const loaded = readWeights(path);
        if (!options.ignoreLoads) state.weights = loaded;
      } catch {
        return [400, { success: false, message: `Failed to get weights iterator: ${path} (repository not found).` }];
      }
      if (version !== undefined) state.weightVersion = version;
      return [200, { success: true, message: 'Succeeded to update model weights.', num_paused_requests: 0 }];
    },
    'POST /generate': (body) => {
      const { input_ids: prompt, sampling_params: params } = body as { input_ids: number[]; sampling_params: Record<string, unknown> };
      const { ids, logprobs } = sample(state.weights, prompt, num(params.max_new_tokens, 16), 0, num(params.repetition_penalty, 1), 'raw');
      return [200, { text: '', meta_info: { output_token_logprobs: ids.map((id, i) => [logprobs[i], id, null]), completion_tokens: ids.length } }];
    },
  });
  return { ...server, state };
}

/** The ssr trainer service as a sampler: loads a checkpoint and reports the version its completions come from. */
export async function toySsr(weights: ToyWeights, routes: Routes = {}) {
  const state = { weights, version: 0 };
  const server = await fakeServer({
    'GET /health': () => [200, { status: 'ok', policy_version: state.version }],
    'POST /update_weights_from_disk': (body) => {
      const path = (body as { model_path: string }).model_path;
      try {
        state.weights = readWeights(path);
      } catch {
        return [400, { success: false, message: `cannot load ${path}: checkpoint directory ${path} does not exist` }];
      }
      state.version = Number(path.split('/v').pop());
      return [200, { success: true, message: 'loaded', policy_version: state.version }];
    },
    'POST /v1/completions': (body) => {
      const request = body as Record<string, unknown>;
      const { ids, logprobs } = sample(state.weights, request.prompt as number[], num(request.max_tokens, 16), num(request.seed, 0), 1, 'raw');
      return [200, { policy_version: state.version, choices: [{ index: 0, text: '', token_ids: ids, logprobs: { token_logprobs: logprobs }, finish_reason: 'length' }] }];
    },
    ...routes,
  });
  return { ...server, state };
}
