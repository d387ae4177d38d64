import type { ChatMessage } from '../../policy/policy.js';
import type { TokensPolicy } from '../../policy/tokens-policy.js';

/** The shape of one benchmark stream: an episode's worth of turns. */
export interface StreamShape {
  turns: number;
  maxTokens: number;
  /** Characters of the first prompt (system + task), and of each tool result added per turn. */
  promptChars: number;
  toolChars: number;
}

/** What one stream sampled: the completion ids of each turn (to check both runs did the same work). */
export interface StreamResult {
  completions: number[][];
  completionTokens: number;
}

const filler = (label: string, chars: number): string => `${label}: ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27))}`.slice(0, chars);

/**
 * One multi-turn stream shaped like an agent episode, through ssr's own TokensPolicy: each turn
 * samples a reply (exact token ids, seeded), then a tool result of `toolChars` is appended and the
 * next turn's prompt is built as an episode's is (previous prompt + reply + the new messages' tokens).
 */
export async function runEpisodeStream(policy: TokensPolicy, index: number, shape: StreamShape): Promise<StreamResult> {
  const episodeId = `bench-${index}`;
  const messages: ChatMessage[] = [
    { role: 'system', content: filler('You repair Python repositories', Math.floor(shape.promptChars * 0.7)) },
    { role: 'user', content: filler(`Task ${index}`, Math.ceil(shape.promptChars * 0.3)) },
  ];
  const completions: number[][] = [];
  try {
    for (let turn = 0; turn < shape.turns; turn++) {
      const reply = await policy.complete({ episodeId, role: 'solver', messages, tools: [], maxTokens: shape.maxTokens, seed: index * 1000 + turn });
      completions.push(reply.sample?.completionTokenIds ?? []);
      messages.push({ role: 'assistant', content: reply.message.content }, { role: 'user', content: filler(`tool output ${turn}`, shape.toolChars) });
    }
  } finally {
    policy.endEpisode(episodeId);
  }
  return { completions, completionTokens: completions.reduce((sum, ids) => sum + ids.length, 0) };
}
