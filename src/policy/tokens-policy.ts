import { EngineError } from '../util/engine-error.js';
import { readCompletionTokens } from './completion-tokens.js';
import { defined } from './defined.js';
import { fetchDefaultModel, resolveEndpoint, type Endpoint, type EndpointOptions, type Env } from './endpoint.js';
import { JsonHttpClient, type HttpClientOptions } from './http-client.js';
import { toOpenAIMessages, toOpenAITools, type OpenAIMessage, type OpenAITool } from './openai-messages.js';
import type { SamplingOptions } from './openai-policy.js';
import type { Policy, PolicyRequest, PolicyTurn } from './policy.js';
import { parseTextToolCall } from './text-protocol/parse-text-tool-call.js';
import { toTextProtocolMessages } from './text-protocol/to-text-protocol-messages.js';
import { DEFAULT_TEXT_TOOL_FORMAT, type TextToolFormat } from './text-protocol/text-tool-format.js';
import type { ToolParserName } from './text-protocol/tool-parsers/tool-parsers.js';
import { tokenDelta } from './token-delta.js';
import { turnCap } from './turn-cap.js';

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
  /** Assistant turns sampled so far: the next request must hold exactly this many. */
  turns: number;
}

/**
 * The RL policy: samples raw token ids from a vLLM-compatible server and keeps them. The model's own
 * tokens are never retokenised: turn k's prompt is turn k−1's prompt + its sampled ids + the tokens
 * of the messages added since (tool results), so the episode is one exact sequence
 * (see buildTokenTrajectory).
 */
export class TokensPolicy implements Policy {
  private readonly endpoint: Endpoint;
  private readonly client: JsonHttpClient;
  private readonly episodes = new Map<string, EpisodeTokens>();
  private model: string | undefined;
  private latestVersion: number;

  constructor(private readonly options: TokensPolicyOptions = {}) {
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

  endEpisode(episodeId: string): void {
    this.episodes.delete(episodeId);
  }

  async complete(request: PolicyRequest): Promise<PolicyTurn> {
    this.model ??= await fetchDefaultModel(this.client, this.endpoint.root, request.signal);
    const format = this.options.textFormat ?? DEFAULT_TEXT_TOOL_FORMAT;
    const textMode = this.options.toolProtocol === 'text';
    const chat = toOpenAIMessages(textMode ? toTextProtocolMessages(request.messages, request.tools, format) : request.messages);
    const tools = !textMode && request.tools.length > 0 ? toOpenAITools(request.tools) : undefined;
    const turns = request.messages.filter((message) => message.role === 'assistant').length;
    const prompt = await this.buildPrompt(request, chat, tools, turns);

    const url = `${this.endpoint.root}/v1/completions`;
    const body = {
      model: this.model,
      prompt: prompt.ids,
      max_tokens: completionBudget(prompt.ids.length, prompt.maxModelLen ?? this.options.contextLength, turnCap(request.maxTokens, this.options.maxTokens)),
      ...defined({ temperature: this.options.temperature, top_p: this.options.topP, seed: request.seed ?? this.options.seed }),
      logprobs: 1,
      return_tokens_as_token_ids: true,
      skip_special_tokens: false,
    };
    const sampled = readCompletionTokens(await this.client.postJson(url, body, request.signal), url);
    const policyVersion = sampled.policyVersion ?? this.latestVersion;
    this.latestVersion = Math.max(this.latestVersion, policyVersion);
    this.episodes.set(request.episodeId, { promptIds: prompt.ids, completionIds: sampled.tokenIds, turns: turns + 1 });

    const sample = {
      promptTokenIds: prompt.ids,
      completionTokenIds: sampled.tokenIds,
      completionLogprobs: sampled.logprobs,
      policyVersion,
      retokenizationWarnings: prompt.warnings,
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
  ): Promise<{ ids: number[]; warnings: number; maxModelLen?: number }> {
    const state = this.episodes.get(request.episodeId);
    if (state === undefined || turns === 0 || state.turns !== turns) {
      // A first turn; or history this policy did not sample (state lost): it can only be retokenised.
      const full = await this.tokenize(chat, tools, true, request.signal);
      return { ids: full.tokens, warnings: turns > 0 ? 1 : 0, maxModelLen: full.maxModelLen };
    }
    let lastAssistant = chat.length - 1;
    while (chat[lastAssistant]?.role !== 'assistant') lastAssistant--;
    const [before, full] = await Promise.all([
      this.tokenize(chat.slice(0, lastAssistant + 1), tools, false, request.signal),
      this.tokenize(chat, tools, true, request.signal),
    ]);
    const { delta, mismatch } = tokenDelta(before.tokens, full.tokens);
    return { ids: [...state.promptIds, ...state.completionIds, ...delta], warnings: mismatch ? 1 : 0, maxModelLen: full.maxModelLen };
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
