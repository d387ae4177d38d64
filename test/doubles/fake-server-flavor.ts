import { renderToyChat, type ToyChatMessage } from './toy-tokenizer.js';

/**
 * The real servers the fake can play, in what ssr's preflight reads from them:
 * - `vllm`: `/v1/models` entries carry `max_model_len`; `tool_choice: "auto"` without
 *   `--enable-auto-tool-choice --tool-call-parser` is a 400; prompt + max_tokens beyond the context is a 400.
 * - `sglang`: `/v1/models` carries no context; `/get_server_info` has `context_length`; without
 *   `--tool-call-parser` tools are accepted and calls come back as text.
 * Either reports the generation defaults it was started with ({@link FakeGenerationDefaults}).
 */
export type FakeServerFlavor = 'vllm' | 'sglang';

type Route = (body: Record<string, unknown>) => [number, unknown];

/** vLLM's words (0.6 to 0.11) for `tool_choice: "auto"` on a server started without a tool parser. */
export const VLLM_NO_TOOL_PARSER = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';

/** Chat prompt tokens as the fake counts them: ~4 bytes a token over a simple rendering, like BPE on code. */
export function chatPromptTokens(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as ToyChatMessage[]) : [];
  const tools = Array.isArray(body.tools) ? JSON.stringify(body.tools) : '';
  return Math.ceil((Buffer.byteLength(renderToyChat(messages, { addGenerationPrompt: true }), 'utf8') + Buffer.byteLength(tools, 'utf8')) / 4);
}

export function modelEntry(model: string, maxModelLen: number, flavor: FakeServerFlavor | undefined): Record<string, unknown> {
  const entry = { id: model, object: 'model', owned_by: flavor ?? 'fake' };
  return flavor === 'vllm' ? { ...entry, root: model, max_model_len: maxModelLen } : entry;
}

/**
 * The generation defaults a server was started with, reported where the real one reports them:
 * SGLang `--preferred-sampling-params` (the JSON text, as SGLang echoes it) and `--sampling-defaults`
 * in `/get_server_info` (and the former in `/get_model_info`); vLLM `--generation-config` and
 * `--override-generation-config` in `/server_info?config_format=json`, served only with
 * VLLM_SERVER_DEV_MODE=1 (`devMode`).
 */
export interface FakeGenerationDefaults {
  preferredSamplingParams?: Record<string, unknown>;
  samplingDefaults?: 'model' | 'openai';
  vllm?: { devMode: boolean; generationConfig?: string; override?: Record<string, unknown> };
  /** SGLang's info routes: `legacy` (default) `/get_server_info` and `/get_model_info`; `current` only `/server_info` and `/model_info`. */
  sglangRoutes?: 'legacy' | 'current';
}

/** The native routes a flavor adds (SGLang's server info, vLLM's dev-mode server info). */
export function flavorRoutes(maxModelLen: number, flavor: FakeServerFlavor | undefined, defaults: FakeGenerationDefaults = {}): Record<string, Route> {
  const preferred = defaults.preferredSamplingParams === undefined ? null : JSON.stringify(defaults.preferredSamplingParams);
  if (flavor === 'vllm') {
    const vllm = defaults.vllm;
    if (!vllm?.devMode) return {};
    const modelConfig = { max_model_len: maxModelLen, generation_config: vllm.generationConfig ?? 'auto', override_generation_config: vllm.override ?? {} };
    return { 'GET /server_info': () => [200, { vllm_config: { model_config: modelConfig }, vllm_env: {} }] };
  }
  if (flavor !== 'sglang') return {};
  const [model, server] = defaults.sglangRoutes === 'current' ? ['GET /model_info', 'GET /server_info'] : ['GET /get_model_info', 'GET /get_server_info'];
  return {
    [model]: () => [200, { model_path: 'fake/model', tokenizer_path: 'fake/model', is_generation: true, preferred_sampling_params: preferred }],
    [server]: () => [
      200,
      { context_length: maxModelLen, tool_call_parser: null, version: '0.4.9', preferred_sampling_params: preferred, sampling_defaults: defaults.samplingDefaults ?? 'model' },
    ],
  };
}

interface RejectionOptions {
  maxModelLen: number;
  flavor?: FakeServerFlavor;
  toolParser?: boolean;
  rejectParams?: string[];
}

/** The 400 a real server gives this chat request, or undefined when it would answer it. */
export function flavorChatRejection(body: Record<string, unknown>, options: RejectionOptions): [number, unknown] | undefined {
  const rejected = (options.rejectParams ?? []).find((param) => param in body);
  if (rejected) return [400, { error: { message: `Unrecognized request argument supplied: ${rejected}`, type: 'invalid_request_error', param: rejected } }];
  if (options.flavor === undefined) return undefined;
  if (options.flavor === 'vllm' && options.toolParser === false && Array.isArray(body.tools) && body.tool_choice === 'auto') {
    return [400, { object: 'error', message: VLLM_NO_TOOL_PARSER, type: 'BadRequestError', param: null, code: 400 }];
  }
  const prompt = chatPromptTokens(body);
  const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
  if (prompt + maxTokens <= options.maxModelLen) return undefined;
  if (options.flavor === 'vllm') return [400, overflowBody(options.maxModelLen, prompt + maxTokens)];
  return [400, { object: 'error', message: `Requested token count exceeds the model's maximum context length of ${options.maxModelLen} tokens. You requested a total of ${prompt + maxTokens} tokens: ${prompt} tokens from the input messages and ${maxTokens} tokens for the completion.`, code: 400 }];
}

/** vLLM's 400 for a prompt + completion beyond the context. */
export function overflowBody(maxModelLen: number, requested: number): unknown {
  return {
    object: 'error',
    message: `This model's maximum context length is ${maxModelLen} tokens. However, you requested ${requested} tokens. Please reduce the length of the messages or completion.`,
    type: 'BadRequestError',
    code: 400,
  };
}
