import { toOpenAIMessages, toOpenAITools, type OpenAIMessage, type OpenAITool } from './openai-messages.js';
import type { PolicyRequest } from './policy.js';
import { toTextProtocolMessages } from './text-protocol/to-text-protocol-messages.js';
import { DEFAULT_TEXT_TOOL_FORMAT, type TextToolFormat } from './text-protocol/text-tool-format.js';

/** A request's conversation as an OpenAI-compatible server takes it, and the text format in play. */
export interface ChatRequest {
  messages: OpenAIMessage[];
  /** Native tools; undefined in text mode or when the request offers none. */
  tools: OpenAITool[] | undefined;
  /** The text format taught in text mode, and read back from text replies in either mode. */
  format: TextToolFormat;
}

/**
 * The messages and tools both OpenAI-compatible policies (chat and token-in/token-out) send. In
 * text mode the tools are taught in ssr's text format inside the messages and no `tools` go out,
 * so the server's own tool parser never sees a call; otherwise the tools go out natively.
 */
export function chatRequest(request: Pick<PolicyRequest, 'messages' | 'tools'>, options: { textMode: boolean; textFormat?: TextToolFormat | undefined }): ChatRequest {
  const format = options.textFormat ?? DEFAULT_TEXT_TOOL_FORMAT;
  const messages = toOpenAIMessages(options.textMode ? toTextProtocolMessages(request.messages, request.tools, format) : request.messages);
  const tools = options.textMode || request.tools.length === 0 ? undefined : toOpenAITools(request.tools);
  return { messages, tools, format };
}
