import type { ChatMessage, TokenUsage } from '../policy/policy.js';

/** Rough tokens of some text: ~4 characters a token, the usual rule of thumb for code and English. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Estimated tokens of messages, with a few tokens of chat-template overhead each. */
export function estimateMessages(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const m of messages) {
    total += 4 + estimateTokens(m.content);
    if (m.role === 'assistant' && m.toolCalls) total += estimateTokens(JSON.stringify(m.toolCalls));
  }
  return total;
}

/**
 * Tracks how full the context is. The policy's own count (prompt + completion of the last turn)
 * is exact when it reports usage; only what was appended since is estimated.
 */
export class ContextBudget {
  private reported = 0;
  private pending = 0;

  constructor(readonly maxTokens: number) {}

  /** Messages appended to the conversation (not yet seen by the policy). */
  add(messages: readonly ChatMessage[]): void {
    this.pending += estimateMessages(messages);
  }

  /** A policy turn: its usage replaces the estimate when present. */
  afterTurn(usage: TokenUsage, message: ChatMessage): void {
    if (usage.promptTokens > 0) {
      this.reported = usage.promptTokens + usage.completionTokens;
      this.pending = 0;
    } else this.add([message]);
  }

  used(): number {
    return this.reported + this.pending;
  }

  remaining(): number {
    return Math.max(0, this.maxTokens - this.used());
  }
}
