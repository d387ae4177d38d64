import type { ChatMessage, ToolSpec } from './policy.js';

/** A chat message on the wire of `/v1/chat/completions` (and vLLM's `/tokenize`). */
export type OpenAIMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** ChatMessage → wire message; tool-call arguments travel as JSON strings, as the API requires. */
export function toOpenAIMessages(messages: ChatMessage[]): OpenAIMessage[] {
  return messages.map((message): OpenAIMessage => {
    switch (message.role) {
      case 'assistant': {
        if (!message.toolCalls || message.toolCalls.length === 0) return { role: 'assistant', content: message.content };
        const toolCalls = message.toolCalls.map((call): OpenAIToolCall => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
        }));
        return { role: 'assistant', content: message.content, tool_calls: toolCalls };
      }
      // No `name`: it is not part of the tool message schema and strict servers reject it.
      case 'tool':
        return { role: 'tool', content: message.content, tool_call_id: message.toolCallId };
      default:
        return { role: message.role, content: message.content };
    }
  });
}

export function toOpenAITools(tools: ToolSpec[]): OpenAITool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}
