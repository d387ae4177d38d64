import { EngineError } from '../util/engine-error.js';
import { readCompletionTokens } from './completion-tokens.js';
import { defined } from './defined.js';
import { fetchDefaultModel, resolveEndpoint, type Endpoint, type EndpointOptions, type Env } from './endpoint.js';
import { JsonHttpClient, type HttpClientOptions } from './http-client.js';
import { chatRequest } from './chat-request.js';
import type { OpenAIMessage, OpenAITool } from './openai-messages.js';
import type { SamplingOptions } from './openai-policy.js';
import type { Policy, PolicyRequest, PolicyTurn } from './policy.js';
import { parseTextToolCall } from './text-protocol/parse-text-tool-call.js';
import type { TextToolFormat } from './text-protocol/text-tool-format.js';
import type { ToolParserName } from './text-protocol/tool-parsers/tool-parsers.js';
import { newMessageTokens, type PreviousCompletion } from './new-message-tokens.js';
import { completionBody, resolveSamplingSettings, type SamplerLogprobs, type SamplingSettings } from './sampling-settings.js';
import { turnCap } from './turn-cap.js';
import type { UnprovenTokens } from './unproven-tokens.js';

/** Completion cap when neither the request, the options nor the server's context size give one. */
const FALLBACK_MAX_TOKENS = 4096;

export interface TokensPolicyOptions extends EndpointOptions, HttpClientOptions, SamplingOptions {
  /**
   * `template` (default): tools go to `/tokenize` and the server's chat template describes them.
   * `text`: the text protocol is taught in the system prompt (for templates without tool support).
   */
  toolProtocol?: 'template' | 'text';
  /** Text format taught in `text` mode. Default `cwm`. Replies are parsed in both formats. */
  textFormat?: TextToolFormat;
  /** Version before the server reports one. Default 0. */
  version?: number;
  /** Top-k; default none (-1, sent explicitly). */
  topK?: number;
  /**
   * `raw` (default): the server's log-probs are the model's own distribution, so only temperature 1,
   * top-p 1, no top-k are allowed. `processed`: the server returns the log-probs of the processed
   * distribution (vLLM `--logprobs-mode processed_logprobs`); other settings are then allowed.
   */
  samplerLogprobs?: SamplerLogprobs;
  env?: Env;
  /** The model's context from the preflight or `--max-context`, for when `/tokenize` reports none. */
  contextLength?: number;
  /** How sampled text is read as a tool call (`--tool-parser`). Default `cwm` (which also reads Hermes blocks). */
  toolParser?: ToolParserName;
}

/** The exact token sequence of an episode so far (the last turn's prompt and what it sampled). */
interface EpisodeTokens {
  promptIds: number[];
  completionIds: number[];
  finishReason: 'stop' | 'length';
  /** Assistant turns sampled so far: the next request must hold exactly this many. */
  turns: number;
}

/**
 * The RL policy: samples raw token ids from a vLLM-compatible server and keeps them. Nothing is
 * ever retokenised: turn k's prompt is turn k−1's prompt + its sampled ids + the tokens of the
 * messages added since (tool results, rendered after a fixed prefix: see newMessageTokens), so
 * the episode is one exact sequence (see buildTokenTrajectory). A turn whose added ids cannot be
 * proven exact carries `unproven` and its episode is masked.
 */
export class TokensPolicy implements Policy {
  private readonly endpoint: Endpoint;
  private readonly client: JsonHttpClient;
  private readonly episodes = new Map<string, EpisodeTokens>();
  private readonly sampling: SamplingSettings;
  private model: string | undefined;
  private latestVersion: number;
  /** The context size the server last reported (`/tokenize`'s `max_model_len`). */
  private maxModelLen: number | undefined;

  /** @throws EngineError `usage` for sampling settings raw log-probs cannot describe (see resolveSamplingSettings). */
  constructor(private readonly options: TokensPolicyOptions = {}) {
    this.sampling = resolveSamplingSettings(options);
    this.endpoint = resolveEndpoint(options, options.env);
    this.client = new JsonHttpClient({ ...options, apiKey: this.endpoint.apiKey });
    this.model = options.model;
    this.latestVersion = options.version ?? 0;
  }

  get name(): string {
    return `tokens:${this.model ?? '(served model)'}`;
  }

  /** The model's context when known: the agent loop ends an episode that fills it (context-limit). */
  get contextLength(): number | undefined {
    return this.options.contextLength;
  }

  /** The newest `policy_version` the server reported. */
  get version(): number {
    return this.latestVersion;
  }

  /**
   * The trainer reports new weights (`ssr selfplay --trainer`): turns sampled from now on carry
   * at least this version, also from a server that reports none of its own.
   */
  advanceVersion(version: number): void {
    this.latestVersion = Math.max(this.latestVersion, version);
  }

  /** The sampler serves the new weights under another model name (a vLLM LoRA adapter): request that from now on. */
  useModel(model: string): void {
    this.model = model;
  }

  endEpisode(episodeId: string): void {
    this.episodes.delete(episodeId);
  }

  async complete(request: PolicyRequest): Promise<PolicyTurn> {
    this.model ??= await fetchDefaultModel(this.client, this.endpoint.root, request.signal);
    const { messages: chat, tools, format } = chatRequest(request, { textMode: this.options.toolProtocol === 'text', textFormat: this.options.textFormat });
    const turns = request.messages.filter((message) => message.role === 'assistant').length;
    const prompt = await this.buildPrompt(request, chat, tools, turns);

    const url = `${this.endpoint.root}/v1/completions`;
    // The model name and the version are fixed together when the request is sent: weights
    // published while it runs (a new adapter name, a new version) are not what sampled it.
    const sentVersion = this.latestVersion;
    const body = completionBody({
      model: this.model,
      prompt: prompt.ids,
      maxTokens: completionBudget(prompt.ids.length, prompt.maxModelLen ?? this.options.contextLength, turnCap(request.maxTokens, this.options.maxTokens)),
      settings: this.sampling,
      ...defined({ seed: request.seed ?? this.options.seed }),
    });
    const sampled = readCompletionTokens(await this.client.postJson(url, body, request.signal), url);
    // A server that reports the version that sampled (the ssr service) is believed; otherwise the
    // version this request was sent to (vLLM, SGLang: they finish running requests on the old weights).
    const policyVersion = sampled.policyVersion ?? sentVersion;
    this.latestVersion = Math.max(this.latestVersion, policyVersion);
    this.episodes.set(request.episodeId, { promptIds: prompt.ids, completionIds: sampled.tokenIds, finishReason: sampled.finishReason, turns: turns + 1 });

    const sample = {
      promptTokenIds: prompt.ids,
      completionTokenIds: sampled.tokenIds,
      completionLogprobs: sampled.logprobs,
      policyVersion,
      sampling: this.sampling,
      ...(prompt.unproven ? { unproven: prompt.unproven } : {}),
    };
    const usage = { promptTokens: prompt.ids.length, completionTokens: sampled.tokenIds.length };
    const parsed = parseTextToolCall(sampled.text, { id: `call_${turns}`, format, parser: this.options.toolParser, tools: request.tools });
    if (parsed.status === 'error') {
      return { message: { role: 'assistant', content: sampled.text }, toolCalls: [], usage, finishReason: sampled.finishReason, sample, formatError: parsed.formatError };
    }
    return { message: { role: 'assistant', content: parsed.content, toolCalls: [parsed.call] }, toolCalls: [parsed.call], usage, finishReason: 'tool_calls', sample };
  }

  private async buildPrompt(
    request: PolicyRequest,
    chat: OpenAIMessage[],
    tools: OpenAITool[] | undefined,
    turns: number,
  ): Promise<{ ids: number[]; unproven?: UnprovenTokens; maxModelLen?: number }> {
    const state = this.episodes.get(request.episodeId);
    if (state === undefined || turns === 0 || state.turns !== turns) {
      // A first turn; or history this policy did not sample (state lost): it can only be rendered anew.
      const full = await this.tokenize(chat, tools, true, request.signal);
      const unproven: UnprovenTokens | undefined =
        turns === 0 ? undefined : { code: 'state-lost', detail: `turn ${turns + 1}: no token state for the ${turns} earlier turn(s); the conversation was rendered anew` };
      return { ids: full.tokens, maxModelLen: this.maxModelLen, ...(unproven ? { unproven } : {}) };
    }
    const render = async (messages: OpenAIMessage[], addGenerationPrompt: boolean): Promise<number[]> =>
      (await this.tokenize(messages, tools, addGenerationPrompt, request.signal)).tokens;
    let lastAssistant = chat.length - 1;
    while (chat[lastAssistant]?.role !== 'assistant') lastAssistant--;
    const previous: PreviousCompletion = { lastTokenId: state.completionIds.at(-1), finishReason: state.finishReason };
    const added = await newMessageTokens(render, chat.slice(lastAssistant + 1), previous);
    const ids = [...state.promptIds, ...state.completionIds, ...added.ids];
    return { ids, maxModelLen: this.maxModelLen, ...(added.unproven ? { unproven: added.unproven } : {}) };
  }

  private async tokenize(
    messages: OpenAIMessage[],
    tools: OpenAITool[] | undefined,
    addGenerationPrompt: boolean,
    signal: AbortSignal | undefined,
  ): Promise<{ tokens: number[]; maxModelLen?: number }> {
    const url = `${this.endpoint.root}/tokenize`;
    const body = { model: this.model, messages, add_generation_prompt: addGenerationPrompt, ...(tools ? { tools } : {}) };
    const response = (await this.client.postJson(url, body, signal)) as { tokens?: unknown; max_model_len?: unknown };
    const tokens = response?.tokens;
    if (!Array.isArray(tokens) || !tokens.every((id) => Number.isInteger(id))) {
      throw new EngineError('policy-unavailable', `malformed response from ${url}: expected {"tokens": [ids…]}`);
    }
    const maxModelLen = typeof response.max_model_len === 'number' ? response.max_model_len : undefined;
    if (maxModelLen !== undefined) this.maxModelLen = maxModelLen;
    return maxModelLen === undefined ? { tokens } : { tokens, maxModelLen };
  }
}

/** The completion cap: what was asked for, never more than the context has room for. */
function completionBudget(promptLength: number, maxModelLen: number | undefined, requested: number | undefined): number {
  if (maxModelLen === undefined) return requested ?? FALLBACK_MAX_TOKENS;
  const room = maxModelLen - promptLength;
  if (room <= 0) {
    throw new EngineError('policy-context-overflow', `the prompt has ${promptLength} tokens; the model's context holds ${maxModelLen}`);
  }
  return Math.min(requested ?? room, room);
}
