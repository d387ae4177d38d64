import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../../../src/policy/create-policy.js';
import type { ChatMessage, PolicyRequest, PolicyTurn } from '../../../../src/policy/policy.js';
import type { Observation } from '../../../../src/policy/procedural/observation.js';
import { ProceduralPolicy } from '../../../../src/policy/procedural/procedural-policy.js';
import { bash, submit, type Program, type ProgramContext } from '../../../../src/policy/procedural/program.js';

/** A two-step program that records what it saw. */
function recordingProgram(seen: { ctx?: ProgramContext; observations: Observation[] }) {
  return async function* (ctx: ProgramContext): Program {
    seen.ctx = ctx;
    const first = yield bash('echo hi', 'Say hi.');
    seen.observations.push(first);
    const second = yield submit({ patch: '/tmp/p.diff' }, 'Submit.');
    seen.observations.push(second);
    return `done with ${ctx.rng.int(1000)}`;
  };
}

function request(messages: ChatMessage[], overrides: Partial<PolicyRequest> = {}): PolicyRequest {
  return { episodeId: 'e1', role: 'solver', messages, tools: [], ...overrides };
}

const START: ChatMessage[] = [
  { role: 'system', content: 'You fix bugs.' },
  { role: 'user', content: 'Make the tests pass.' },
];

/** Plays the conversation forward: the turn's message, then the given tool output with a loop footer. */
function answer(messages: ChatMessage[], turn: PolicyTurn, output: string, turnsLeft: number): ChatMessage[] {
  const call = turn.toolCalls[0]!;
  return [...messages, turn.message, { role: 'tool', toolCallId: call.id, name: call.name, content: `${output}\n\n[${turnsLeft} turns and ~9000 tokens left]` }];
}

describe('ProceduralPolicy', () => {
  it('answers each request with the one tool call its program yields, then with its summary', async () => {
    const seen: { ctx?: ProgramContext; observations: Observation[] } = { observations: [] };
    const policy = new ProceduralPolicy({ seed: 4, programs: { solver: recordingProgram(seen) } });
    const first = await policy.complete(request(START));
    expect(first).toEqual({
      message: { role: 'assistant', content: 'Say hi.', toolCalls: [{ id: 'procedural_1', name: 'bash', arguments: { command: 'echo hi' } }] },
      toolCalls: [{ id: 'procedural_1', name: 'bash', arguments: { command: 'echo hi' } }],
      usage: { promptTokens: 0, completionTokens: 0 },
      finishReason: 'tool_calls',
    });
    expect(seen.ctx).toMatchObject({ episodeId: 'e1', role: 'solver', seed: 4, systemPrompt: 'You fix bugs.', userPrompt: 'Make the tests pass.' });

    let messages = answer(START, first, 'hi\n[exit code 3]', 9);
    const second = await policy.complete(request(messages));
    expect(second.toolCalls[0]).toMatchObject({ id: 'procedural_2', name: 'submit', arguments: { patch: '/tmp/p.diff' } });
    expect(seen.observations[0]).toMatchObject({ tool: 'bash', text: 'hi', ok: false, exitCode: 3, turnsLeft: 9 });
    expect(seen.ctx?.budget).toEqual({ turnsLeft: 9, tokensLeft: 9000 });

    messages = answer(messages, second, 'Submission recorded.', 8);
    const last = await policy.complete(request(messages));
    expect(last.toolCalls).toEqual([]);
    expect(last.finishReason).toBe('stop');
    expect(last.message.content).toMatch(/^done with \d+$/);
    expect(last.gaveUp).toBeUndefined(); // it submitted: a summary, not a give-up
    expect(seen.observations[1]).toMatchObject({ tool: 'submit', ok: true });
    // Asked again (the loop would not, but a policy must not crash): the same summary.
    expect((await policy.complete(request(messages))).message.content).toBe(last.message.content);
  });

  it('ends a program that returns without submitting as a give-up, with its summary as the reason', async () => {
    async function* quitter(): Program {
      yield bash('git log --oneline | wc -l', 'Count the commits.');
      return 'No bug submitted (history strategy): the history strategy found nothing to change.';
    }
    const policy = new ProceduralPolicy({ programs: { injector: quitter } });
    const first = await policy.complete(request(START, { role: 'injector' }));
    const last = await policy.complete(request(answer(START, first, '1', 9), { role: 'injector' }));
    expect(last).toMatchObject({ toolCalls: [], finishReason: 'stop', gaveUp: 'No bug submitted (history strategy): the history strategy found nothing to change.' });
  });

  it('is deterministic per seed: the request seed wins over the policy seed', async () => {
    const summary = async (policySeed: number, requestSeed?: number) => {
      const seen = { observations: [] as Observation[] };
      const policy = new ProceduralPolicy({ seed: policySeed, programs: { solver: recordingProgram(seen) } });
      const r = (messages: ChatMessage[]) => request(messages, { seed: requestSeed });
      const a = await policy.complete(r(START));
      const b = await policy.complete(r(answer(START, a, 'ok', 3)));
      return (await policy.complete(r(answer(answer(START, a, 'ok', 3), b, 'Submission recorded.', 2)))).message.content;
    };
    expect(await summary(1)).toBe(await summary(1));
    expect(await summary(1, 9)).toBe(await summary(2, 9));
    const all = new Set(await Promise.all([1, 2, 3, 4, 5].map((seed) => summary(seed))));
    expect(all.size).toBeGreaterThan(1);
  });

  it('keeps episodes apart, runs the program of the request role, and starts over after endEpisode', async () => {
    const starts: string[] = [];
    const program = (name: string) =>
      async function* (ctx: ProgramContext): Program {
        starts.push(`${name}:${ctx.episodeId}`);
        yield bash('true', name);
        return name;
      };
    const policy = new ProceduralPolicy({ programs: { injector: program('injector'), solver: program('solver') } });
    expect((await policy.complete(request(START, { episodeId: 'a', role: 'injector' }))).message.content).toBe('injector');
    expect((await policy.complete(request(START, { episodeId: 'b', role: 'solver' }))).message.content).toBe('solver');
    policy.endEpisode('a');
    await policy.complete(request(START, { episodeId: 'a', role: 'injector' }));
    expect(starts).toEqual(['injector:a', 'solver:b', 'injector:a']);
  });

  it('is what --policy procedural builds', async () => {
    const policy = await createPolicy({ policy: 'procedural', seed: 3 });
    expect(policy).toBeInstanceOf(ProceduralPolicy);
    expect(policy.name).toBe('procedural');
  });
});
