import { z } from 'zod';
import type { AgentRole, ToolSpec } from './tool-spec.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { Submission } from './submission.js';

/** Per-command time limit of `bash` unless the episode sets another (method §8). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;

/** What a tool needs from the episode it runs in. */
export interface ToolContext {
  sandbox: Sandbox;
  role: AgentRole;
  /** Per-command limit for `bash` (already capped by the episode's remaining wall time). */
  commandTimeoutMs: number;
}

/**
 * The outcome of one tool call, shown to the model as `output`. Mistakes the model can fix (bad
 * arguments, a failing command, an edit with no match) are results with `isError: true`, never
 * exceptions; only infrastructure failures (EngineError) escape `run`.
 */
export interface ToolResult {
  output: string;
  isError: boolean;
  /** Set by `submit` only: what the harness read from the sandbox. */
  submission?: Submission;
}

/**
 * A tool declared as data. `schema` is at once the model-facing JSON schema ({@link toToolSpec}),
 * the runtime validator of the model's arguments and the TS type of `run`'s `args`.
 */
export interface Tool<Args = unknown> {
  readonly name: string;
  readonly description: string;
  readonly schema: z.ZodType<Args>;
  /** Method syntax on purpose: it lets a `Tool<{…}>` sit in a `Tool[]`. */
  run(args: Args, ctx: ToolContext): Promise<ToolResult>;
}

/** The tool as offered to the model. */
export function toToolSpec(tool: Tool): ToolSpec {
  // `$schema` is noise to a chat endpoint (and some servers reject unknown keys).
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.schema) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, parameters };
}

/** A result the model can act on: it made a mistake. */
export function toolError(output: string): ToolResult {
  return { output, isError: true };
}

/** A result that reports success. */
export function toolOk(output: string): ToolResult {
  return { output, isError: false };
}
