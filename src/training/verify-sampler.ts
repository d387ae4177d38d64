import { readCompletionTokens } from '../policy/completion-tokens.js';
import { completionBody, NEUTRAL_SAMPLING_PARAMS, RAW_SAMPLING } from '../policy/sampling-settings.js';
import { EngineError, errorMessage } from '../util/engine-error.js';
import { requestJson, serverRoot } from './http-json.js';
import type { SamplerKind } from './sampler-sync-mode.js';
import { bodyHead } from './sync-failure.js';

const TIMEOUT_MS = 10 * 60_000;
/** Repeated words: a repetition / presence / frequency penalty has tokens to bite on. */
export const PROBE_TEXT = 'ssr sampler check: the cat sat on the mat, the cat sat on the mat, the cat sat on the';
const PROBE_TOKENS = 16;
/**
 * Mean |sampler − trainer| log-prob over the probe's tokens above which the sampler is taken to
 * serve other weights or another distribution. bf16 serving against an fp32 or bf16 trainer stays
 * well below it on the same weights; a penalty of 1.05 on a repeated token, another run's adapter
 * or another base model lands far above it.
 */
export const DEFAULT_PROBE_TOLERANCE = 0.05;

export interface SamplerCheck {
  samplerUrl: string;
  kind: SamplerKind;
  /** The model name the run samples by (a vLLM adapter); undefined: what the sampler serves by default. */
  model?: string;
  trainerUrl: string;
  /** The version both must serve. */
  version: number;
  tolerance?: number;
}

/** What the check measured: the probe's tokens and the mean and largest log-prob difference. */
export interface SamplerCheckResult {
  tokens: number;
  meanDiff: number;
  maxDiff: number;
}

const TRAINER_TODO = 'ssr checks every sync against the trainer\'s own log-probs: serve the trainer with python3 -m ssr_trainer.service (POST /tokenize and POST /logprobs, docs/rl-contract.md)';

/**
 * After a sync (and before the first sample of a run): the sampler samples a few tokens after a
 * fixed prompt on the route and model name the run samples by, every sampling parameter neutral,
 * and the trainer scores the same tokens (`POST /logprobs`). The log-probs must agree within
 * `tolerance`: a sampler that serves other weights than the trainer's (an adapter left under a
 * reused name, a load that silently did nothing) or alters the distribution it returns log-probs
 * of (penalties) stops the run before any of its samples is trained.
 *
 * @throws EngineError `policy-unavailable` (not retryable) naming the server, the route and what to do.
 */
export async function verifySampler(check: SamplerCheck): Promise<SamplerCheckResult> {
  const sampler = serverRoot(check.samplerUrl);
  const trainer = serverRoot(check.trainerUrl);
  const prompt = await trainerTokens(trainer);
  const model = check.model ?? (check.kind === 'vllm-lora' ? await firstModel(sampler) : undefined);
  const route = check.kind === 'sglang' ? 'POST /generate' : 'POST /v1/completions';
  const sampled = check.kind === 'sglang' ? await sampleSglang(sampler, prompt) : await sampleCompletions(sampler, prompt, model);
  const where = `${route}${model === undefined ? '' : `, model ${model}`}`;
  if (sampled.version !== undefined && sampled.version !== check.version) {
    throw mismatch(sampler, where, `it reports policy_version ${sampled.version}, and the trainer is at version ${check.version}`,
      'It did not load the trainer\'s weights: restart it, or check that --base-url is the server the weights were loaded into');
  }
  const scored = await trainerLogprobs(trainer, prompt, sampled.tokenIds);
  if (scored.version !== check.version) {
    throw new EngineError('policy-unavailable', `the trainer at ${trainer} answered POST /logprobs at version ${scored.version}, not ${check.version}: another client is training it`, { retryable: false });
  }
  const diffs = scored.logprobs.map((value, i) => Math.abs(value - sampled.logprobs[i]!));
  const result = { tokens: diffs.length, meanDiff: diffs.reduce((a, b) => a + b, 0) / diffs.length, maxDiff: Math.max(...diffs) };
  const tolerance = check.tolerance ?? DEFAULT_PROBE_TOLERANCE;
  if (!(result.meanDiff <= tolerance)) {
    throw mismatch(sampler, where,
      `the log-probs it returned for ${result.tokens} sampled tokens differ from the trainer's (POST ${trainer}/logprobs, version ${check.version}) by ${result.meanDiff.toFixed(4)} on average ` +
        `(largest ${result.maxDiff.toFixed(4)}; tolerance ${tolerance}), with every penalty sent neutral`,
      'It serves other weights than the trainer (an adapter another run left under this name, a load that did not take, another base model) ' +
        'or alters the distribution regardless of the request (penalties from a generation config, a logits processor). Start the sampler from the trainer\'s base model ' +
        'with no sampling overrides (vLLM: --generation-config vllm) and run again; nothing sampled from it was trained');
  }
  return result;
}

function mismatch(root: string, where: string, what: string, todo: string): EngineError {
  return new EngineError('policy-unavailable', `the sampler at ${root} does not serve the trainer's weights (${where}): ${what}. ${todo}`, { retryable: false });
}

async function trainerTokens(trainer: string): Promise<number[]> {
  const answer = await requestJson(`${trainer}/tokenize`, { method: 'POST', body: { prompt: PROBE_TEXT } }, TIMEOUT_MS);
  const tokens = (answer.body as { tokens?: unknown } | null)?.tokens;
  if (answer.status !== 200 || !Array.isArray(tokens) || tokens.length === 0 || !tokens.every((id) => Number.isInteger(id))) {
    throw new EngineError('policy-unavailable', `the trainer at ${trainer} did not tokenize the sampler check's prompt (POST /tokenize): HTTP ${answer.status}: ${bodyHead(answer.text)}. ${TRAINER_TODO}`, { retryable: false });
  }
  return tokens as number[];
}

async function trainerLogprobs(trainer: string, prompt: number[], continuation: number[]): Promise<{ logprobs: number[]; version: unknown }> {
  const answer = await requestJson(`${trainer}/logprobs`, { method: 'POST', body: { prompt, continuation } }, TIMEOUT_MS);
  const body = answer.body as { logprobs?: unknown; policy_version?: unknown } | null;
  const logprobs = body?.logprobs;
  if (answer.status !== 200 || !Array.isArray(logprobs) || logprobs.length !== continuation.length || !logprobs.every((value) => typeof value === 'number')) {
    throw new EngineError('policy-unavailable', `the trainer at ${trainer} did not score the sampler check's tokens (POST /logprobs): HTTP ${answer.status}: ${bodyHead(answer.text)}. ${TRAINER_TODO}`, { retryable: false });
  }
  return { logprobs: logprobs as number[], version: body?.policy_version };
}

async function firstModel(sampler: string): Promise<string | undefined> {
  const listing = await requestJson(`${sampler}/v1/models`, { method: 'GET' }, TIMEOUT_MS);
  const id = (listing.body as { data?: Array<{ id?: unknown }> } | null)?.data?.[0]?.id;
  return typeof id === 'string' ? id : undefined;
}

interface Sampled {
  tokenIds: number[];
  logprobs: number[];
  version?: number;
}

function refused(sampler: string, route: string, status: number, text: string): EngineError {
  return new EngineError('policy-unavailable',
    `the sampler at ${sampler} did not answer the sampler check (${route}): HTTP ${status}: ${bodyHead(text)}. It must sample token ids with log-probs and accept ` +
      `every penalty at its neutral value (${Object.entries(NEUTRAL_SAMPLING_PARAMS).map(([key, value]) => `${key} ${value}`).join(', ')}), as tokens mode sends them`, { retryable: false });
}

/** vLLM and the ssr service: the route and body tokens mode samples with, at the neutral settings. */
async function sampleCompletions(sampler: string, prompt: number[], model: string | undefined): Promise<Sampled> {
  const url = `${sampler}/v1/completions`;
  const body = completionBody({ ...(model === undefined ? {} : { model }), prompt, maxTokens: PROBE_TOKENS, settings: RAW_SAMPLING, seed: 0, ignoreEos: true });
  const answer = await requestJson(url, { method: 'POST', body }, TIMEOUT_MS);
  if (answer.status !== 200) throw refused(sampler, 'POST /v1/completions', answer.status, answer.text);
  try {
    const sampled = readCompletionTokens(answer.body, url);
    return { tokenIds: sampled.tokenIds, logprobs: sampled.logprobs, ...(sampled.policyVersion === undefined ? {} : { version: sampled.policyVersion }) };
  } catch (error) {
    throw refused(sampler, 'POST /v1/completions', answer.status, errorMessage(error));
  }
}

/** SGLang's native route: `output_token_logprobs` are `[logprob, token_id, text]` triples. */
async function sampleSglang(sampler: string, prompt: number[]): Promise<Sampled> {
  const sampling = { max_new_tokens: PROBE_TOKENS, temperature: 1, top_p: 1, top_k: -1, ...NEUTRAL_SAMPLING_PARAMS, ignore_eos: true };
  const answer = await requestJson(`${sampler}/generate`, { method: 'POST', body: { input_ids: prompt, sampling_params: sampling, return_logprob: true } }, TIMEOUT_MS);
  const triples = (answer.body as { meta_info?: { output_token_logprobs?: unknown } } | null)?.meta_info?.output_token_logprobs;
  const ok = Array.isArray(triples) && triples.length > 0 && triples.every((t) => Array.isArray(t) && typeof t[0] === 'number' && Number.isInteger(t[1]));
  if (answer.status !== 200 || !ok) throw refused(sampler, 'POST /generate', answer.status, answer.text);
  const rows = triples as Array<[number, number]>;
  return { tokenIds: rows.map((row) => row[1]), logprobs: rows.map((row) => row[0]) };
}
