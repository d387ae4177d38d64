/**
 * The fake server's tokenizer: one token per UTF-8 byte of a simple chat rendering. Ids of sampled
 * completions can be shifted by {@link SAMPLED_ID_OFFSET} so that a test sees at once whether kept
 * ids are the sampled ones or a retokenisation (which would give plain byte ids).
 */
export const SAMPLED_ID_OFFSET = 1000;

export interface ToyChatMessage {
  role: string;
  content?: string | null;
  tool_calls?: Array<{ function: { name: string; arguments: string } }>;
}

export interface ToyRenderOptions {
  addGenerationPrompt: boolean;
  toolNames?: string[];
  /**
   * Imitates a chat template that renders the last message differently (`<|eot|>` instead of
   * `<|end|>` when no generation prompt follows), so "before" is not a prefix of "full".
   */
  templateQuirk?: boolean;
}

export function toyEncode(text: string, offset = 0): number[] {
  return [...Buffer.from(text, 'utf8')].map((byte) => byte + offset);
}

export function toyDecode(ids: number[]): string {
  return Buffer.from(ids.map((id) => id % SAMPLED_ID_OFFSET)).toString('utf8');
}

export function renderToyChat(messages: ToyChatMessage[], options: ToyRenderOptions): string {
  let text = options.toolNames && options.toolNames.length > 0 ? `<|tools|>${options.toolNames.join(',')}<|end|>\n` : '';
  messages.forEach((message, index) => {
    const calls = (message.tool_calls ?? []).map((call) => `<tool_call>{"name":"${call.function.name}","arguments":${call.function.arguments}}</tool_call>`);
    const body = [message.content ?? '', ...calls].join('\n');
    const last = index === messages.length - 1;
    const end = options.templateQuirk && last && !options.addGenerationPrompt ? '<|eot|>' : '<|end|>';
    text += `<|${message.role}|>${body}${end}\n`;
  });
  return options.addGenerationPrompt ? `${text}<|assistant|>` : text;
}

export function toyTokenizeChat(messages: ToyChatMessage[], options: ToyRenderOptions): number[] {
  return toyEncode(renderToyChat(messages, options));
}
