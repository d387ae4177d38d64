import { cwmParser } from './cwm-parser.js';
import { hermesParser } from './hermes-parser.js';
import { llama3JsonParser } from './llama3-json-parser.js';
import { mistralParser } from './mistral-parser.js';
import { qwen3CoderParser } from './qwen3-coder-parser.js';
import type { ToolCallParser } from './tool-call-parser.js';

/** `--tool-parser` names (vLLM's spelling where it has the format) → parser. */
export const TOOL_PARSERS = {
  cwm: cwmParser,
  hermes: hermesParser,
  qwen3_coder: qwen3CoderParser,
  llama3_json: llama3JsonParser,
  mistral: mistralParser,
} as const satisfies Record<string, ToolCallParser>;

export type ToolParserName = keyof typeof TOOL_PARSERS;
export const TOOL_PARSER_NAMES = Object.keys(TOOL_PARSERS) as ToolParserName[];
