import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExitStatus } from '../../../src/agent/agent-exit.js';
import { JsonlTrajectoryWriter, readTrajectory } from '../../../src/agent/trajectory.js';
import { buildTrainingSample, type BuildSampleInput } from '../../../src/rl/build-sample.js';
import { trainingSampleSchema } from '../../../src/rl/training-sample.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { exit, header, step, tokenSample, trajectory } from './trajectory-factory.js';

const input = (overrides: Partial<BuildSampleInput> = {}): BuildSampleInput => ({
  trajectory: trajectory(),
  role: 'solver',
  groupId: 'solver:bug-1:order-1',
  episodeId: 'ep-1',
  bugId: 'bug-1',
  reward: 1,
  ...overrides,
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-build-sample-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('buildTrainingSample', () => {
  it('joins the token samples of a tokens-mode trajectory read from disk', async () => {
    const path = join(dir, 'tokens.jsonl');
    const writer = await JsonlTrajectoryWriter.open(path);
    for (const record of [header(), step(1), step(2), exit()]) await writer.write(record);
    await writer.close();
    const sample = buildTrainingSample(input({ trajectory: await readTrajectory(path) }));
    expect(trainingSampleSchema.parse(sample)).toEqual(sample);
    expect(sample).toMatchObject({
      id: 'solver:ep-1.solve-0', role: 'solver', episodeId: 'ep-1', bugId: 'bug-1', policyVersion: 4, reward: 1, advantage: 0,
      finishReason: 'submitted', masked: false, maskReason: null, messages: null, tools: null,
    });
    // prompt [1,2] + completion [10,11]; then the observation glue 91 + completion [20,21].
    expect(sample.tokens).toEqual({
      ids: [1, 2, 10, 11, 91, 20, 21],
      lossMask: [0, 0, 1, 1, 0, 1, 1],
      logprobs: [null, null, -0.1, -0.2, null, -0.2, -0.2],
    });
  });

  it('falls back to OpenAI chat messages and tools when a turn has no token sample', () => {
    const sample = buildTrainingSample(input({ trajectory: trajectory({ steps: [step(1), step(2, { sample: undefined })] }) }));
    expect(sample.tokens).toBeNull();
    expect(sample.messages).toEqual([
      { role: 'system', content: 'You fix bugs.' },
      { role: 'user', content: 'Make these tests pass.' },
      { role: 'assistant', content: 'turn 1', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
      { role: 'tool', content: 'out 1', tool_call_id: 'c1' },
      { role: 'assistant', content: 'turn 2', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
      { role: 'tool', content: 'out 2', tool_call_id: 'c2' },
    ]);
    expect(sample.tools).toEqual([{ type: 'function', function: { name: 'bash', description: 'run a command', parameters: { type: 'object' } } }]);
  });

  it.each<[ExitStatus, boolean, string | null]>([
    ['submitted', false, null],
    ['format-errors', false, null],
    ['turn-limit', false, null],
    ['context-limit', false, null],
    ['time-limit', false, null],
    ['infrastructure-error', true, 'exit infrastructure-error earns no reward'],
    ['policy-error', true, 'exit policy-error earns no reward'],
    ['tool-error', true, 'exit tool-error earns no reward'],
    ['cancelled', true, 'exit cancelled earns no reward'],
  ])('an episode that ended %s is masked: %s', (status, masked, maskReason) => {
    const sample = buildTrainingSample(input({ trajectory: trajectory({ exit: exit(status) }), reward: -1 }));
    expect(sample).toMatchObject({ masked, maskReason, finishReason: status, reward: -1 });
    expect(sample.maskCode).toBe(maskReason === null ? null : maskReason.startsWith('limit') ? 'limit-hit' : 'no-reward');
  });

  it.each([
    ['context-dependent', { unproven: { code: 'context-dependent', detail: 'numbered' } }, 'tokens-context-dependent', /^turn 2: tokens not provably exact \(context-dependent\): numbered$/],
    ['state-lost', { unproven: { code: 'state-lost', detail: 'forgotten' } }, 'tokens-state-lost', /state-lost/],
    ['a format-1 retokenisation warning', { retokenizationWarnings: 1 }, 'tokens-retokenized', /^turn 2: its prompt was retokenised$/],
  ] as const)('masks an episode with a turn whose tokens are not provably exact: %s', (_case, extra, code, reason) => {
    const steps = [step(1), step(2, { sample: { ...tokenSample(2), ...extra } })];
    const sample = buildTrainingSample(input({ trajectory: trajectory({ steps }) }));
    expect(sample).toMatchObject({ masked: true, maskCode: code });
    expect(sample.maskReason).toMatch(reason);
    expect(sample.tokens).not.toBeNull();
  });

  it('records the sampling settings of a tokens-mode trajectory', () => {
    const sampling = { temperature: 0.6, topP: 0.9, topK: 20, logprobs: 'processed' } as const;
    const steps = [step(1, { sample: { ...tokenSample(1), sampling } }), step(2, { sample: { ...tokenSample(2), sampling } })];
    const sample = buildTrainingSample(input({ trajectory: trajectory({ steps }) }));
    expect(sample).toMatchObject({ masked: false, maskCode: null, sampling });
    expect(trainingSampleSchema.parse(sample).sampling).toEqual(sampling);
  });

  it.each<ExitStatus>(['turn-limit', 'context-limit', 'time-limit'])('masks a %s with maskLimitHits (--limit-hits mask), reward kept', (status) => {
    const sample = buildTrainingSample(input({ trajectory: trajectory({ exit: exit(status) }), reward: 1, maskLimitHits: true }));
    expect(sample).toMatchObject({ masked: true, maskReason: `limit hit: ${status}`, reward: 1 });
  });

  it('takes an infrastructure ending without a reward (reward 0, masked)', () => {
    const sample = buildTrainingSample(input({ trajectory: trajectory({ exit: exit('infrastructure-error') }), reward: null }));
    expect(sample).toMatchObject({ reward: 0, masked: true });
  });

  it('masks a trajectory without an exit record when the caller knows how it ended', () => {
    const sample = buildTrainingSample(input({ trajectory: trajectory({ exit: null }), exitStatus: 'submitted' }));
    expect(sample).toMatchObject({ masked: true, maskReason: 'trajectory has no exit record (cut short)' });
  });

  it('masks tokens that do not chain, and keeps the chat for logging', () => {
    const broken = step(2, { sample: { ...tokenSample(2), promptTokenIds: [1, 3] } });
    const sample = buildTrainingSample(input({ trajectory: trajectory({ steps: [step(1), broken] }) }));
    expect(sample.masked).toBe(true);
    expect(sample.maskReason).toMatch(/^tokens inconsistent: turn 1: its prompt does not extend/);
    expect(sample.maskCode).toBe('tokens-inconsistent');
    expect(sample.tokens).toBeNull();
    expect(sample.messages).toHaveLength(6);
  });

  it('uses the oldest policy version of any turn', () => {
    const steps = [step(1, { policyVersion: 6, sample: tokenSample(1, 6) }), step(2, { policyVersion: 7, sample: tokenSample(2, 7) })];
    expect(buildTrainingSample(input({ trajectory: trajectory({ steps }) })).policyVersion).toBe(6);
    expect(buildTrainingSample(input({ trajectory: trajectory({ steps: [] }) })).policyVersion).toBe(4);
  });

  it.each([
    ['the wrong role', input({ role: 'injector' }), /is a solver trajectory, not injector/],
    ['no exit status', input({ trajectory: trajectory({ exit: null }) }), /has no exit record and no exit status was given/],
    ['a scored ending without reward', input({ reward: null }), /ended submitted but has no reward/],
  ])('throws for %s', (_name, bad, message) => {
    expect(() => buildTrainingSample(bad)).toThrow(EngineError);
    expect(() => buildTrainingSample(bad)).toThrow(message);
  });
});
