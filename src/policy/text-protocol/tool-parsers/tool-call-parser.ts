import type { ToolSpec } from '../../policy.js';

/** A call as read from text, before it gets an id. */
export interface ParsedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** Every call found in a reply (in order) and the reply without them; or why a call is malformed. */
export type CallsParse = { status: 'ok'; calls: ParsedCall[]; content: string } | { status: 'error'; reason: string };

/**
 * One text tool-call format a model may be trained on (`--tool-parser`). Parsers only read; the
 * rule of exactly one call per reply and the error wording live in parseTextToolCall.
 */
export interface ToolCallParser {
  /** The registry key, as vLLM names its parsers where it has one. */
  readonly name: string;
  /** What a model that broke the format is told to write instead. */
  readonly reminder: string;
  /** `tools` lets formats whose values are untyped text (Qwen3-Coder XML) type them by the tool's schema. */
  parse(text: string, tools?: readonly ToolSpec[]): CallsParse;
}
