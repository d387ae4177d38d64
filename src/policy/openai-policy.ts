import { chatRequest } from './chat-request.js';
import { ContextRoom } from './context-room.js';
import { defined } from './defined.js';
import { fetchDefaultModel, resolveEndpoint, type Endpoint, type EndpointOptions, type Env } from './endpoint.js';
import { JsonHttpClient, type HttpClientOptions } from './http-client.js';
import type { Policy, PolicyRequest, PolicyTurn } from './policy.js';
import { readChatCompletion } from './read-chat-completion.js';
import type { TextToolFormat } from './text-protocol/text-tool-format.js';
import type { ToolParserName } from './text-protocol/tool-parsers/tool-parsers.js';
import { turnCap } from './turn-cap.js';

/** Sampling settings shared by the HTTP policies; unset ones are left to the server. */
export interface SamplingOptions {
  /** Served model name; default: the first of `GET /v1/models`. */
  model?: string;
  temperature?: number;
  topP?: number;
  /** Completion cap per turn; a request's own `maxTokens` (the agent's context room) caps it further. */
  maxTokens?: number;
  /** Default seed (a request's own `seed` wins). */
  seed?: number;
}

export interface OpenAIPolicyOptions extends EndpointOptions, HttpClientOptions, SamplingOptions {
  /**
   * `native` (default): send `tools`, read `tool_calls` (and fall back to the text protocol when the
   * server answers with text only). `text`: the server never sees tools; the protocol is taught in
   * the system prompt and history is re-rendered as text.
   */
  toolProtocol?: 'native' | 'text';
  /** Text format taught in `text` mode. Default `cwm`. */
  textFormat?: TextToolFormat;
  /**
   * The model's context (prompt + completion tokens), from the preflight or `--max-context`: each
   * turn's `max_tokens` is clamped to what is left of it. Unset: no clamp beyond the request's.
   */
  contextLength?: number;
  /**
   * How a native-mode reply that carries its call as text is read (`--tool-parser`: the model's
   * trained format, e.g. a server without a tool parser). Default `cwm` (which also reads Hermes blocks).
   */
  toolParser?: ToolParserName;
  /** false: never send `seed` (the preflight found the server refuses it). Default true. */
  sendSeed?: boolean;
  /** Weights version reported to the trainer. Default 0. */
  version?: number;
  env?: Env;
}

/** A policy behind any OpenAI-compatible `/v1/chat/completions` endpoint (vLLM, SGLang, OpenAI, …). */
export class OpenAIPolicy implements Policy {
  readonly version: number;
  private readonly endpoint: Endpoint;
  private readonly client: JsonHttpClient;
  private readonly room: ContextRoom | undefined;
  private model: string | undefined;

  constructor(private readonly options: OpenAIPolicyOptions = {}) {
    this.endpoint = resolveEndpoint(options, options.env);
    this.client = new JsonHttpClient({ ...options, apiKey: this.endpoint.apiKey });
    this.model = options.model;
    this.version = options.version ?? 0;
    this.room = options.contextLength === undefined ? undefined : new ContextRoom(options.contextLength);
  }

  /** The model's context when known: the agent loop ends an episode that fills it (context-limit). */
  get contextLength(): number | undefined {
    return this.options.contextLength;
  }

  endEpisode(episodeId: string): void {
    this.room?.forget(episodeId);
  }

  get name(): string {
    return `openai:${this.model ?? '(served model)'}`;
  }

  async complete(request: PolicyRequest): Promise<PolicyTurn> {
    this.model ??= await fetchDefaultModel(this.client, this.endpoint.root, request.signal);
    const textMode = this.options.toolProtocol === 'text';
    const { messages, tools, format } = chatRequest(request, { textMode, textFormat: this.options.textFormat });
    const room = this.room?.room(request.episodeId, messages, tools);
    const body: Record<string, unknown> = {
      model: this.model,
      messages,
      ...(tools ? { tools, tool_choice: 'auto' } : {}),
      ...defined({
        temperature: this.options.temperature,
        top_p: this.options.topP,
        max_tokens: turnCap(turnCap(request.maxTokens, this.options.maxTokens), room),
        seed: this.options.sendSeed === false ? undefined : (request.seed ?? this.options.seed),
      }),
    };
    const url = `${this.endpoint.root}/v1/chat/completions`;
    const response = await this.client.postJson(url, body, request.signal);
    const callId = `call_${request.messages.filter((message) => message.role === 'assistant').length}`;
    // In text mode ssr taught its own format, so it reads that; in native mode a reply that came
    // back as text is in the model's trained format, which --tool-parser names.
    const turn = readChatCompletion(response, url, { callId, format, parser: textMode ? undefined : this.options.toolParser });
    this.room?.record(request.episodeId, messages.length, turn.usage);
    return turn;
  }
}
