import { EngineError } from '../util/engine-error.js';
import type { OpenAIMessage, OpenAITool } from './openai-messages.js';

/**
 * Conservative tokens of some text: 3 characters a token (BPE on code and English gives 3.5 to 4.5),
 * so a turn's completion cap errs towards leaving room, not towards a server's 400.
 */
export function conservativeTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

function messageTokens(messages: readonly OpenAIMessage[]): number {
  // ~8 tokens of chat-template glue per message (role markers, separators).
  return messages.reduce((sum, message) => sum + 8 + conservativeTokens(JSON.stringify(message)), 0);
}

/**
 * How much of a model's context is left for each episode's next completion. The prompt is the
 * server's own count (`usage`) of the last turn plus a conservative estimate of what was appended
 * since; with no usage at all, the whole prompt is estimated.
 */
export class ContextRoom {
  private readonly known = new Map<string, { messages: number; tokens: number }>();

  constructor(readonly contextLength: number) {}

  /** Completion tokens that still fit; a prompt that leaves none is a context overflow. */
  room(episodeId: string, messages: readonly OpenAIMessage[], tools: readonly OpenAITool[] | undefined): number {
    const known = this.known.get(episodeId);
    const prompt =
      known !== undefined && known.messages <= messages.length
        ? known.tokens + messageTokens(messages.slice(known.messages))
        : messageTokens(messages) + (tools ? conservativeTokens(JSON.stringify(tools)) : 0);
    const room = this.contextLength - prompt;
    if (room < 1) {
      throw new EngineError('policy-context-overflow', `the prompt has ~${prompt} tokens (estimated); the model's context holds ${this.contextLength}`);
    }
    return room;
  }

  /** The server's count after a turn: `messages` prompt messages plus the reply, `tokens` in all. */
  record(episodeId: string, messages: number, usage: { promptTokens: number; completionTokens: number }): void {
    if (usage.promptTokens > 0) this.known.set(episodeId, { messages: messages + 1, tokens: usage.promptTokens + usage.completionTokens });
  }

  forget(episodeId: string): void {
    this.known.delete(episodeId);
  }
}
