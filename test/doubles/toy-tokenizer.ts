/**
 * The fake server's tokenizer: one token per UTF-8 byte of a simple chat rendering. Ids of sampled
 * completions can be shifted by {@link SAMPLED_ID_OFFSET} so that a test sees at once whether kept
 * ids are the sampled ones or a retokenisation (which would give plain byte ids).
 */
export const SAMPLED_ID_OFFSET = 1000;

/** The toy template's end-of-turn token (`<|end|>`), one id like a real tokenizer's `<|im_end|>`; the fake server's completions stop on it. */
export const TOY_END_OF_TURN = 300;
const END_TEXT = '<|end|>';

export interface ToyChatMessage {
  role: string;
  content?: string | null;
  tool_calls?: Array<{ function: { name: string; arguments: string } }>;
}

export interface ToyRenderOptions {
  addGenerationPrompt: boolean;
  toolNames?: string[];
}

export function toyEncode(text: string, offset = 0): number[] {
  return [...Buffer.from(text, 'utf8')].map((byte) => byte + offset);
}

export function toyDecode(ids: number[]): string {
  return Buffer.from(ids.map((id) => id % SAMPLED_ID_OFFSET)).toString('utf8');
}

export function renderToyChat(messages: ToyChatMessage[], options: ToyRenderOptions): string {
  let text = options.toolNames && options.toolNames.length > 0 ? `<|tools|>${options.toolNames.join(',')}${END_TEXT}\n` : '';
  for (const message of messages) {
    const calls = (message.tool_calls ?? []).map((call) => `<tool_call>{"name":"${call.function.name}","arguments":${call.function.arguments}}</tool_call>`);
    const body = [message.content ?? '', ...calls].join('\n');
    text += `<|${message.role}|>${body}${END_TEXT}\n`;
  }
  return options.addGenerationPrompt ? `${text}<|assistant|>` : text;
}

/** The rendering as ids: bytes, with each `<|end|>` as the one {@link TOY_END_OF_TURN} id. */
export function toyTokenizeChat(messages: ToyChatMessage[], options: ToyRenderOptions): number[] {
  return renderToyChat(messages, options)
    .split(END_TEXT)
    .flatMap((part, i) => (i === 0 ? toyEncode(part) : [TOY_END_OF_TURN, ...toyEncode(part)]));
}
