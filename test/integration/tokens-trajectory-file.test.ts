import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLimitsSchema } from '../../src/agent/agent-limits.js';
import { JsonlTrajectoryWriter, readTrajectory } from '../../src/agent/trajectory.js';
import { TRAJECTORY_FORMAT, type TrajectoryRecord } from '../../src/agent/trajectory-record.js';
import type { ChatMessage, PolicyTurn, TokenSample, ToolSpec } from '../../src/policy/policy.js';
import { buildTokenTrajectory } from '../../src/policy/token-trajectory.js';
import { TokensPolicy } from '../../src/policy/tokens-policy.js';
import { buildTrainingSample } from '../../src/rl/build-sample.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../doubles/fake-openai-server.js';
import { SAMPLED_ID_OFFSET } from '../doubles/toy-tokenizer.js';

// Real TokensPolicy turns (against the fake OpenAI-compatible server) through the real trajectory
// writer and reader: what a tokens-mode run dir holds, and what training reads back from it.

const tools: ToolSpec[] = [
  { name: 'bash', description: 'Run a command.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
];
const start: ChatMessage[] = [
  { role: 'system', content: 'You are the solver.' },
  { role: 'user', content: 'Make the tests pass.' },
];

let dir: string;
let episode = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-tokens-trajectory-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Played {
  path: string;
  samples: TokenSample[];
  /** Each step line's `sample` exactly as stored. */
  stored: Array<{ promptPrefixTokens: number; promptTokenIdsAdded: number[] }>;
}

/**
 * Play turns, one policy per turn (the same one, or a fresh one that lost the episode's tokens),
 * each observation fed back as a tool result, and record them the way the agent loop does.
 */
async function play(server: FakeOpenAIServer, policies: TokensPolicy[], replies: string[]): Promise<Played> {
  server.replyCompletion(...replies.map((text) => ({ text })));
  const path = join(dir, `episode-${++episode}.jsonl`);
  const writer = await JsonlTrajectoryWriter.open(path);
  const messages = [...start];
  const samples: TokenSample[] = [];
  await writer.write({
    type: 'header', format: TRAJECTORY_FORMAT, episodeId: `ep-${episode}`, role: 'solver', policy: { name: policies[0]!.name, version: 0 },
    limits: agentLimitsSchema.parse({}), systemPrompt: start[0]!.content, userPrompt: start[1]!.content, tools, startedAt: new Date(0).toISOString(),
  });
  for (const [k, policy] of policies.entries()) {
    const turn: PolicyTurn = await policy.complete({ episodeId: `ep-${episode}`, role: 'solver', messages: [...messages], tools, maxTokens: 128 });
    samples.push(turn.sample!);
    const observations: ChatMessage[] = [{ role: 'tool', content: `output ${k}\n`.repeat(k + 1), toolCallId: turn.toolCalls[0]!.id, name: 'bash' }];
    messages.push(turn.message, ...observations);
    const step: TrajectoryRecord = {
      type: 'step', turn: k + 1, assistant: turn.message, toolCall: turn.toolCalls[0], observations, submitted: false, finishReason: turn.finishReason,
      usage: turn.usage, policyVersion: turn.sample!.policyVersion, timings: { policyMs: 1, toolMs: 1 }, sample: turn.sample,
    };
    await writer.write(step);
  }
  const usage = { promptTokens: 0, completionTokens: 0 };
  await writer.write({ type: 'exit', exitStatus: 'turn-limit', submission: null, turns: policies.length, usage, contextTokens: 0, formatErrors: 0, durationMs: 1 });
  await writer.close();
  const lines = (await readFile(path, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { type: string; sample?: Played['stored'][number] });
  return { path, samples, stored: lines.filter((line) => line.type === 'step').map((line) => line.sample!) };
}

const bash = (command: string) => `<tool: bash>\n${command}\n</tool>`;

describe('tokens-mode trajectories on disk (real TokensPolicy, real writer and reader)', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer({ model: 'fake-model', sampledIdOffset: SAMPLED_ID_OFFSET });
  });
  afterAll(() => server.close());
  const policy = () => new TokensPolicy({ model: 'fake-model', baseUrl: server.baseUrl, env: {} });

  it('reads a multi-turn episode back to identical samples; each line stores only its turn\'s new prompt ids', async () => {
    const same = policy();
    const { path, samples, stored } = await play(server, [same, same, same, same], [bash('ls'), bash('cat a.py'), bash('pytest -q'), bash('git diff')]);
    expect(samples.map((s) => s.unproven)).toEqual([undefined, undefined, undefined, undefined]);
    expect(samples.every((s) => s.sampling?.logprobs === 'raw')).toBe(true);
    const back = await readTrajectory(path);
    expect(back.header.format).toBe(TRAJECTORY_FORMAT);
    expect(back.steps.map((s) => s.sample)).toEqual(samples);
    expect(stored.map((s) => s.promptPrefixTokens)).toEqual([0, ...samples.slice(0, -1).map((s) => s.promptTokenIds.length + s.completionTokenIds.length)]);
    stored.forEach((s, k) => expect(s.promptTokenIdsAdded).toEqual(samples[k]!.promptTokenIds.slice(s.promptPrefixTokens)));
    const sample = buildTrainingSample({ trajectory: back, role: 'solver', groupId: 'g', episodeId: 'e', bugId: null, reward: 1, maskLimitHits: false });
    expect(sample).toMatchObject({ masked: false, maskCode: null, sampling: { temperature: 1, topP: 1, topK: -1, logprobs: 'raw' } });
    expect(sample.tokens!.ids).toEqual([...samples[3]!.promptTokenIds, ...samples[3]!.completionTokenIds]);
  });

  it('stores a delta for an unproven turn too, reads its reason back, and training masks the episode by it', async () => {
    // The model stops on a token the template does not close turns with: the sequence extends, unproven.
    const odd = await startFakeOpenAIServer({ sampledIdOffset: SAMPLED_ID_OFFSET, stopTokenId: 301 });
    try {
      const same = new TokensPolicy({ baseUrl: odd.baseUrl, env: {} });
      const { path, samples, stored } = await play(odd, [same, same], [bash('ls'), bash('pwd')]);
      expect(samples[1]!.unproven).toMatchObject({ code: 'stop-token-mismatch' });
      expect(stored[1]!.promptPrefixTokens).toBe(samples[0]!.promptTokenIds.length + samples[0]!.completionTokenIds.length);
      const back = await readTrajectory(path);
      expect(back.steps.map((s) => s.sample)).toEqual(samples);
      expect(() => buildTokenTrajectory(back.steps.map((s) => s.sample!))).not.toThrow();
      const sample = buildTrainingSample({ trajectory: back, role: 'solver', groupId: 'g', episodeId: 'e', bugId: null, reward: 1, maskLimitHits: false });
      expect(sample).toMatchObject({ masked: true, maskCode: 'tokens-stop-token-mismatch' });
    } finally {
      await odd.close();
    }
  });

  it('stores the full prompt of a turn that rendered lost history anew, and training refuses the episode', async () => {
    // The second turn comes from a policy that never sampled the first: it renders it anew.
    const { path, samples, stored } = await play(server, [policy(), policy()], [bash('ls'), bash('pwd')]);
    expect(samples[1]!.unproven).toMatchObject({ code: 'state-lost' });
    expect(stored[1]).toMatchObject({ promptPrefixTokens: 0, promptTokenIdsAdded: samples[1]!.promptTokenIds });
    const back = await readTrajectory(path);
    expect(back.steps.map((s) => s.sample)).toEqual(samples);
    expect(() => buildTokenTrajectory(back.steps.map((s) => s.sample!))).toThrow(/^turn 1: its prompt does not extend the episode's tokens so far/);
    const sample = buildTrainingSample({ trajectory: back, role: 'solver', groupId: 'g', episodeId: 'e', bugId: null, reward: 1, maskLimitHits: false });
    expect(sample).toMatchObject({ masked: true, tokens: null, maskCode: 'tokens-state-lost' });
    expect(sample.maskReason).toMatch(/^turn 2: tokens not provably exact \(state-lost\)/);
  });
});
