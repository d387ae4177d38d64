import type { OpenAIMessage } from './openai-messages.js';
import type { UnprovenTokens } from './unproven-tokens.js';

/** Renders messages with the server's chat template (`/tokenize`), tools and all, as token ids. */
export type RenderChat = (messages: OpenAIMessage[], addGenerationPrompt: boolean) => Promise<number[]>;

/** How the previous turn's completion ended: its last sampled id and whether a stop token ended it. */
export interface PreviousCompletion {
  lastTokenId: number | undefined;
  finishReason: 'stop' | 'length';
}

/**
 * A fixed reply, differing only in its last character. It carries a think block so Qwen3-style
 * templates treat it alike wherever it stands (they add an empty one to a last reply, strip a
 * reply's reasoning once a user turn follows: either way both variants change alike).
 */
const reply = (end: string): OpenAIMessage => ({ role: 'assistant', content: `<think>\nok\n</think>\n\n${end}` });
const SHORT: OpenAIMessage[] = [
  { role: 'system', content: 'S' },
  { role: 'user', content: 'U' },
];
/** The two variants of a reply may differ in this many tokens at most (a character, maybe merged with a neighbour). */
const MAX_REPLY_DIFFERENCE = 4;

/**
 * The prompt ids a turn appends after the previous prompt + completion: the tokens of the new
 * messages (tool results, feedback) and the generation prompt. Earlier turns are never
 * re-rendered: the new messages are rendered after a fixed prefix ending in a fixed reply, twice
 * with replies differing in their last character; what both renderings share after the
 * difference is what follows a reply — the template's end-of-turn token, its glue (ChatML's `\n`),
 * the new messages, the generation prompt. The end-of-turn token is the model's own when it
 * stopped on it (dropped here), and a prompt token when the completion was cut by length.
 *
 * The same is done after a longer prefix that already holds a copy of the new messages: a
 * template whose rendering of them depends on the history (numbering, position) gives other
 * tokens there. Ids that cannot be proven exact come back with `unproven` (the episode is masked).
 */
export async function newMessageTokens(render: RenderChat, newMessages: OpenAIMessage[], previous: PreviousCompletion): Promise<{ ids: number[]; unproven?: UnprovenTokens }> {
  const long = [...SHORT, reply('x'), ...newMessages];
  const after = (prefix: OpenAIMessage[]): Promise<number[]> => render([...prefix, ...newMessages], true);
  const [shortA, shortB, longA, longB] = await Promise.all([
    after([...SHORT, reply('A')]),
    after([...SHORT, reply('B')]),
    after([...long, reply('A')]),
    after([...long, reply('B')]),
  ]);
  const short = afterReply(shortA, shortB);
  const longer = afterReply(longA, longB);
  if (short === null || longer === null) {
    return { ids: short ?? [], unproven: { code: 'prefix-mismatch', detail: 'the new messages render differently depending on the reply before them' } };
  }
  if (!sameIds(short, longer)) {
    return { ids: short, unproven: { code: 'context-dependent', detail: 'the new messages render differently after a longer history' } };
  }
  if (previous.finishReason === 'length') return { ids: short };
  if (short.length > 0 && previous.lastTokenId === short[0]) return { ids: short.slice(1) };
  return {
    ids: short,
    unproven: { code: 'stop-token-mismatch', detail: `the completion stopped on token ${previous.lastTokenId ?? '(none)'}, the template closes a turn with ${short[0] ?? '(nothing)'}` },
  };
}

/** What two renderings differing only in the reply's last character share after it; null when they differ elsewhere too. */
function afterReply(a: number[], b: number[]): number[] | null {
  let prefix = 0;
  while (prefix < Math.min(a.length, b.length) && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < Math.min(a.length, b.length) - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const differing = a.length - suffix - prefix;
  if (prefix === a.length || differing > MAX_REPLY_DIFFERENCE) return null;
  return a.slice(a.length - suffix);
}

function sameIds(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((id, i) => b[i] === id);
}
