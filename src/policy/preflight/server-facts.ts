/** `--tool-protocol`: native tool calls, ssr's text protocol, or `auto` (native when the server takes them). */
export const TOOL_PROTOCOL_CHOICES = ['native', 'text', 'auto'] as const;
export type ToolProtocolChoice = (typeof TOOL_PROTOCOL_CHOICES)[number];

/** Where the model's context length came from. */
export type ContextSource = 'vllm /v1/models max_model_len' | 'sglang /get_model_info' | 'sglang /get_server_info' | 'tokenize max_model_len' | '--max-context';

/**
 * What the preflight learned about a model server before any episode runs; the HTTP policies are
 * built from it (served model, context to clamp each turn to, how tool calls travel).
 */
export interface ServerFacts {
  /** Server root, no trailing `/v1`. */
  root: string;
  /** Every model the server lists. */
  models: string[];
  /** The model the run uses (`--model`, else the first listed). */
  model: string;
  /** The model's context (prompt + completion tokens), or null when neither the server nor `--max-context` tells. */
  context: { tokens: number; source: ContextSource } | null;
  /** How tool calls travel in chat mode; tokens mode always renders through the template. */
  toolProtocol: 'native' | 'text';
  /** Whether chat responses carry `usage` (null: not probed, tokens mode counts tokens itself). */
  reportsUsage: boolean | null;
  /** false when the server refuses a sampling `seed`: turns are then sent without one. */
  sendsSeed: boolean;
  /** One line each for what the user should know (a fallback, an estimate); never errors. */
  notes: string[];
}
