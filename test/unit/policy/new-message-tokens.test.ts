import { describe, expect, it } from 'vitest';
import { newMessageTokens, type RenderChat } from '../../../src/policy/new-message-tokens.js';
import type { OpenAIMessage } from '../../../src/policy/openai-messages.js';
import { TOY_END_OF_TURN, toyEncode, toyTokenizeChat, type ToyChatMessage } from '../../doubles/toy-tokenizer.js';

// The toy template: `<|role|>content<|end|>\n` per message, `<|end|>` one id (TOY_END_OF_TURN).
const toy: RenderChat = async (messages, addGenerationPrompt) => toyTokenizeChat(messages as ToyChatMessage[], { addGenerationPrompt });
const result: OpenAIMessage[] = [{ role: 'tool', content: 'a.py', tool_call_id: 'c0' }];
/** By hand: the end-of-turn token, its '\n', the tool turn, the generation prompt. */
const expected = [TOY_END_OF_TURN, ...toyEncode('\n<|tool|>a.py'), TOY_END_OF_TURN, ...toyEncode('\n<|assistant|>')];

describe('newMessageTokens', () => {
  it('after a completion that stopped on the end-of-turn token: its glue, the new messages, the generation prompt', async () => {
    expect(await newMessageTokens(toy, result, { lastTokenId: TOY_END_OF_TURN, finishReason: 'stop' })).toEqual({ ids: expected.slice(1) });
  });

  it('after a completion cut by length: the end-of-turn token too, as a prompt token', async () => {
    expect(await newMessageTokens(toy, result, { lastTokenId: 65, finishReason: 'length' })).toEqual({ ids: expected });
  });

  it('after a completion that stopped on another token: the template close, marked unproven', async () => {
    const added = await newMessageTokens(toy, result, { lastTokenId: 999, finishReason: 'stop' });
    expect(added).toMatchObject({ ids: expected, unproven: { code: 'stop-token-mismatch' } });
  });

  it('a template numbering tool turns across the history: context-dependent', async () => {
    const numbering: RenderChat = async (messages, add) => {
      let n = 0;
      const renumbered = messages.map((m) => (m.role === 'tool' ? { ...m, content: `#${++n} ${m.content}` } : m));
      return toy(renumbered, add);
    };
    const added = await newMessageTokens(numbering, result, { lastTokenId: TOY_END_OF_TURN, finishReason: 'stop' });
    expect(added.unproven).toMatchObject({ code: 'context-dependent' });
  });

  it('a template quoting the reply in the tool turn: prefix-mismatch', async () => {
    const quoting: RenderChat = async (messages, add) =>
      toy(messages.map((m, i) => (m.role === 'tool' ? { ...m, content: `${messages[i - 1]!.content.slice(-20)}: ${m.content}` } : m)), add);
    const added = await newMessageTokens(quoting, result, { lastTokenId: TOY_END_OF_TURN, finishReason: 'stop' });
    expect(added.unproven).toMatchObject({ code: 'prefix-mismatch' });
  });
});
