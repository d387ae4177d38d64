import type { ChatMessage, ToolSpec } from '../policy.js';
import { renderToolCallAsText } from './render-tool-call-text.js';
import { renderToolProtocolInstructions } from './render-tool-instructions.js';
import { DEFAULT_TEXT_TOOL_FORMAT, type TextToolFormat } from './text-tool-format.js';

/**
 * Rewrites a conversation for a server that knows nothing of tools: the protocol instructions join
 * the system prompt, past tool calls become text in the assistant turns (as the model wrote them),
 * and tool results become user turns. One message in, one message out (plus a system message when
 * the conversation had none), so indices of assistant turns keep their order.
 */
export function toTextProtocolMessages(messages: ChatMessage[], tools: ToolSpec[], format: TextToolFormat = DEFAULT_TEXT_TOOL_FORMAT): ChatMessage[] {
  const instructions = tools.length > 0 ? renderToolProtocolInstructions(tools, format) : '';
  const out: ChatMessage[] = messages.map((message): ChatMessage => {
    switch (message.role) {
      case 'system':
        return instructions ? { role: 'system', content: `${message.content}\n\n${instructions}` } : message;
      case 'assistant': {
        const calls = (message.toolCalls ?? []).map((call) => renderToolCallAsText(call, format));
        return { role: 'assistant', content: [message.content.trim(), ...calls].filter((part) => part !== '').join('\n\n') };
      }
      case 'tool':
        return { role: 'user', content: `Result of ${message.name}:\n${message.content}` };
      default:
        return message;
    }
  });
  if (instructions && messages[0]?.role !== 'system') out.unshift({ role: 'system', content: instructions });
  return out;
}
