import type { SamplingSettings } from './sampling-settings.js';
import type { UnprovenTokens } from './unproven-tokens.js';
import type { AgentRole, ToolSpec } from '../tools/tool-spec.js';

/**
 * The policy handle shared by both roles (method §8). An LLM behind an
 * HTTP endpoint, the procedural (model-free) policy and the scripted test double all implement it.
 */

export type { AgentRole, ToolSpec } from '../tools/tool-spec.js';

/** A tool call as the harness sees it: arguments already JSON-decoded (validated later by the tool's zod schema). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string; name: string };

export interface PolicyRequest {
  /** Stable per episode: lets stateful policies (procedural) keep per-episode state. */
  episodeId: string;
  role: AgentRole;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /**
   * Sampling seed of this turn: the episode's seed plus the turn index (so turn 0 carries the
   * episode's seed, which the procedural policy seeds itself with; servers get a fresh draw per turn).
   */
  seed?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/**
 * Exact tokens of one sampled turn (tokens mode): the full prompt ids the sampler saw, the sampled
 * ids and their logprobs. RL trains on these, never on a retokenisation.
 */
export interface TokenSample {
  promptTokenIds: number[];
  completionTokenIds: number[];
  completionLogprobs: number[];
  /** Version of the weights that sampled (the trainer's staleness filter reads it). */
  policyVersion: number;
  /**
   * Format-1 files only (read back, never written now): how many times building the prompt had to
   * retokenise. Any count > 0 masks the episode like {@link unproven}.
   */
  retokenizationWarnings?: number;
  /** Set when this turn's prompt ids are not provably exact (see `UnprovenTokens`); the episode is then masked. */
  unproven?: UnprovenTokens;
  /** The settings that sampled this turn (tokens mode). */
  sampling?: SamplingSettings;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls';

export interface PolicyTurn {
  /** The assistant message to append to the conversation (content + tool calls). */
  message: { role: 'assistant'; content: string; toolCalls?: ToolCall[] };
  toolCalls: ToolCall[];
  usage: TokenUsage;
  finishReason: FinishReason;
  sample?: TokenSample;
  /**
   * Set when the model's output could not be read as exactly one tool call (text protocol errors,
   * undecodable or several native calls); fed back to the model. `toolCalls` is then empty and
   * `message` carries no tool calls (what the model wrote is in `message.content`).
   */
  formatError?: string;
  /**
   * Set when the policy ends the episode on purpose without a tool call before anything was
   * submitted (a program that found no bug): why. The loop then ends with `gave-up` rather than
   * counting the turn as a format error and asking again.
   */
  gaveUp?: string;
}

export interface Policy {
  /** e.g. "openai:Qwen3-32B", "tokens:...", "procedural", "scripted". */
  readonly name: string;
  /** Weights version; bumps after each trainer step. */
  readonly version: number;
  /**
   * The served model's context (prompt + completion tokens) when known (the preflight read it):
   * the agent loop's context budget never exceeds it.
   */
  readonly contextLength?: number;
  complete(request: PolicyRequest): Promise<PolicyTurn>;
  /** Free per-episode state (optional). */
  endEpisode?(episodeId: string): void;
  /**
   * Wall time the ended episode spent in each phase of the policy's own work, ms, handed out once
   * (the procedural Injector's: see INJECTOR_PHASES); undefined when the policy timed none.
   */
  takePhaseTimes?(episodeId: string): Partial<Record<string, number>> | undefined;
}
