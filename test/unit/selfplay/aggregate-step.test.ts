import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../../../src/agent/trajectory.js';
import { countEpisodes } from '../../../src/selfplay/episode-counts.js';
import { aggregateStepMetrics } from '../../../src/selfplay/aggregate-step.js';
import type { EpisodeEvidence } from '../../../src/selfplay/step-evidence.js';
import { stepMetricsSchema } from '../../../src/selfplay/step-metrics.js';
import { discarded, makeEpisode } from '../corpus/corpus-factory.js';
import { exit, step, trajectory } from '../rl/trajectory-factory.js';

const order2 = (id: string, solver: number[]) =>
  makeEpisode({ id, order: 2, parentBugId: 'bug-p', attemptOf: 'ep-a1', rewards: { injector: null, solver }, solverAttempts: solver.length, solved: solver.filter((r) => r > 0).length });

describe('countEpisodes', () => {
  it.each([
    ['no episode', [], { episodes: 0, valid: 0, validRate: null, solveRate: { order1: null, order2: null }, higherOrder: 0 }],
    [
      'valid, invalid, nothing submitted, discarded',
      [
        makeEpisode({ id: 'a' }),
        makeEpisode({ id: 'b', valid: false, failedCheck: 'concealment', bugId: 'bug-b', rewards: { injector: -1, solver: [] }, solverAttempts: 0, solved: 0 }),
        makeEpisode({ id: 'c', valid: null, bugId: null, strategy: 'history', rewards: { injector: -1, solver: [] }, solverAttempts: 0, solved: 0 }),
        discarded('d', 'inject:docker-unavailable: the Docker engine is not reachable'),
      ],
      {
        episodes: 4, discarded: 1, discardReasons: { 'inject:docker-unavailable': 1 }, valid: 1, validRate: 1 / 3,
        invalidByCheck: { concealment: 1, 'no-submission': 1 }, strategies: { removal: 2, history: 1 },
        solverAttempts: 8, solved: 3, rewards: { injector: [0.325, -1, -1], solver: [1, 1, 1, -1, -1, -1, -1, -1] },
      },
    ],
    [
      'a give-up counts as its own class, apart from an Injector that ran out of turns with nothing submitted',
      [
        makeEpisode({ id: 'g', valid: null, bugId: null, strategy: 'history', injectorExit: { status: 'gave-up', reason: 'the history strategy found nothing to change' }, rewards: { injector: -1, solver: [] }, solverAttempts: 0, solved: 0 }),
        makeEpisode({ id: 'f', valid: null, bugId: null, injectorExit: { status: 'format-errors', reason: null }, rewards: { injector: -1, solver: [] }, solverAttempts: 0, solved: 0 }),
      ],
      { valid: 0, invalidByCheck: { 'gave-up': 1, 'no-submission': 1 } },
    ],
    [
      'a valid bug whose buggy tree the run already has counts once: the second is a duplicate, not valid again',
      [makeEpisode({ id: 'a', bugId: 'bug-a' }), makeEpisode({ id: 'b', bugId: 'bug-a', duplicateOf: 'bug-a' })],
      { episodes: 2, valid: 1, validRate: 1 / 2, invalidByCheck: { duplicate: 1 } },
    ],
    [
      'order-2 episodes count in solves and higherOrder, never in validity',
      [makeEpisode({ id: 'a' }), order2('a-o2-a4', [1, -1, -1, -1]), { ...discarded('a-o2-a5', 'engine-stopped: the run stopped'), order: 2 as const, parentBugId: 'bug-p' }],
      { episodes: 3, valid: 1, validRate: 1, higherOrder: 2, discarded: 1, solverAttempts: 12, solved: 4, solveRate: { order1: 3 / 8, order2: 1 / 4 } },
    ],
  ])('%s', (_name, records, expected) => {
    expect(countEpisodes(records)).toMatchObject(expected);
  });
});

describe('aggregateStepMetrics', () => {
  const evidence: EpisodeEvidence[] = [
    {
      record: makeEpisode({ id: 'a' }),
      commit: 'c0',
      injector: trajectory({ header: { ...trajectory().header, role: 'injector' }, exit: { ...exit(), turns: 23, usage: { promptTokens: 0, completionTokens: 0 } } }),
      attempts: [
        { attempt: { id: 'a-a1', status: 'solved', reward: 1, exitStatus: 'submitted', reason: '' }, trajectory: trajectory() },
        { attempt: { id: 'a-a2', status: 'discarded', reward: null, exitStatus: null, reason: 'x' }, trajectory: null },
      ],
      bug: { files: 2, hunks: 2, lines: 14, kinds: ['remove-lines', 'replace-lines'] },
    },
    { record: discarded('b'), commit: 'c0', injector: null, attempts: [], bug: null },
  ];
  const metrics = aggregateStepMetrics({
    step: 3, policyVersion: 2, startedAt: '2025-01-01T00:00:00.000Z', durationMs: 1000, evidence,
    stageMs: { prepare: 1, score: 2, emit: 3 }, samples: { written: 3, stale: 0, masked: 1, zeroAdvantageGroups: 1 }, trainer: { version: 3, metrics: { loss: 0.5 } },
  });

  it('matches the metrics.jsonl schema, field for field', () => {
    expect(stepMetricsSchema.parse(metrics)).toEqual(metrics);
  });

  it('sums stage times from the records and distributions from the evidence', () => {
    expect(metrics.stageMs).toEqual({ prepare: 1, inject: 20, validate: 40, solve: 60, score: 2, emit: 3 });
    expect(metrics.turns).toEqual({ injector: [23], solver: [2] });
    expect(metrics.tokens).toEqual({ injector: [0], solver: [24] });
    expect(metrics.bugSize).toEqual({ files: [2], lines: [14] });
    expect(metrics.operators).toEqual({ 'remove-lines': 1, 'replace-lines': 1 });
    expect(metrics).toMatchObject({ episodes: 2, discarded: 1, discardReasons: { 'docker-unavailable': 1 }, trainer: { version: 3, metrics: { loss: 0.5 } } });
  });

  it('counts the leak flags of every episode record by kind (records written before leaks existed count none)', () => {
    const flag = (kind: 'history' | 'network', turn: number) => ({ attempt: 'x-a1', kind, turn, command: 'git log', what: 'git log' });
    const leaky = [
      { ...evidence[0]!, record: { ...makeEpisode({ id: 'x' }), leaks: [flag('history', 1), flag('network', 2), flag('history', 4)] } },
      { ...evidence[0]!, record: makeEpisode({ id: 'y' }) },
    ];
    const line = aggregateStepMetrics({ ...{ step: 0, policyVersion: 0, startedAt: '', durationMs: 1, stageMs: { prepare: 0, score: 0, emit: 0 } }, evidence: leaky, samples: metrics.samples, trainer: null });
    expect(line.leaks).toEqual({ history: 2, network: 1 });
    expect(metrics.leaks).toEqual({});
  });

  it("sums the episodes' test runs by kind and scope (records written before the counts count none)", () => {
    const counted = [
      { ...evidence[0]!, record: { ...makeEpisode({ id: 'x' }), testRuns: { original: { full: 2, restricted: 0 }, buggy: { full: 0, restricted: 1 }, audit: { full: 1, restricted: 0 } } } },
      { ...evidence[0]!, record: makeEpisode({ id: 'y' }) },
      { ...evidence[0]!, record: { ...makeEpisode({ id: 'z' }), testRuns: { buggy: { full: 1, restricted: 0 }, grading: { full: 2, restricted: 0 } } } },
    ];
    const line = aggregateStepMetrics({ ...{ step: 0, policyVersion: 0, startedAt: '', durationMs: 1, stageMs: { prepare: 0, score: 0, emit: 0 } }, evidence: counted, samples: metrics.samples, trainer: null });
    expect(line.testRuns).toEqual({ original: { full: 2, restricted: 0 }, buggy: { full: 1, restricted: 1 }, audit: { full: 1, restricted: 0 }, grading: { full: 2, restricted: 0 } });
    expect(metrics.testRuns).toEqual({});
  });

  it('stability per trajectory: completion tokens and format errors per turn from the exit record, NLL from the samples', () => {
    // The factory's steps sampled logprobs [-0.1, -0.2] and [-0.2, -0.2]: mean NLL (0.1 + 0.2 + 0.2 + 0.2) / 4.
    expect(metrics.stability).toEqual({
      outputTokens: { injector: [0], solver: [2] },
      formatErrorRate: { injector: [0], solver: [0] },
      sampledNll: { injector: [0.175], solver: [0.175] },
    });
  });
});

describe('aggregateStepMetrics: stability signals (method §10)', () => {
  /** The solver-side stability values of a step whose one episode has these attempt trajectories. */
  const signals = (...trajectories: Array<Trajectory | null>) =>
    aggregateStepMetrics({
      step: 0, policyVersion: 0, startedAt: '2025-01-01T00:00:00.000Z', durationMs: 1, stageMs: { prepare: 0, score: 0, emit: 0 },
      samples: { written: 0, stale: 0, masked: 0, zeroAdvantageGroups: 0 }, trainer: null,
      evidence: [{
        record: makeEpisode({ id: 'a' }), commit: 'c0', injector: null, bug: null,
        attempts: trajectories.map((t, i) => ({ attempt: { id: `a-a${i + 1}`, status: 'failed' as const, reward: -1, exitStatus: 'submitted' as const, reason: '' }, trajectory: t })),
      }],
    });
  const openaiStep = (turn: number, overrides = {}) => ({ ...step(turn), sample: undefined, ...overrides });

  it.each([
    [
      'the exit record: completion tokens / turns, formatErrors / turns',
      [trajectory({ exit: { ...exit(), turns: 4, usage: { promptTokens: 900, completionTokens: 100 }, formatErrors: 1 } })],
      { outputTokens: [25], formatErrorRate: [0.25], sampledNll: [0.175] },
    ],
    [
      'no exit record (a killed episode): summed over its steps, format errors counted from them',
      [trajectory({ exit: null, steps: [step(1, { usage: { promptTokens: 10, completionTokens: 7 } }), step(2, { usage: { promptTokens: 20, completionTokens: 3 }, formatError: 'no tool call' })] })],
      { outputTokens: [5], formatErrorRate: [0.5], sampledNll: [0.175] },
    ],
    [
      'no token samples (openai, procedural): no NLL, the other two still counted',
      [trajectory({ steps: [openaiStep(1), openaiStep(2)] }), trajectory({ steps: [openaiStep(1)], exit: { ...exit(), turns: 1, usage: { promptTokens: 5, completionTokens: 9 }, formatErrors: 1 } })],
      { outputTokens: [2, 9], formatErrorRate: [0, 1], sampledNll: [] },
    ],
    [
      'NLL over the turns that kept a sample; a non-finite logprob is left out',
      [trajectory({ steps: [openaiStep(1), step(2, { sample: { ...step(2).sample!, completionLogprobs: [-0.5, -Infinity, -1.5] } })] })],
      { outputTokens: [2], formatErrorRate: [0], sampledNll: [1] },
    ],
    [
      'a trajectory without a turn and a missing one say nothing about output',
      [trajectory({ steps: [], exit: { ...exit('infrastructure-error'), turns: 0, usage: { promptTokens: 0, completionTokens: 0 } } }), null],
      { outputTokens: [], formatErrorRate: [], sampledNll: [] },
    ],
  ])('%s', (_name, trajectories, expected) => {
    const metrics = signals(...trajectories);
    expect(metrics.stability).toEqual({
      outputTokens: { injector: [], solver: expected.outputTokens },
      formatErrorRate: { injector: [], solver: expected.formatErrorRate },
      sampledNll: { injector: [], solver: expected.sampledNll },
    });
  });

  it('the turn count of a zero-turn trajectory is still recorded under turns and tokens', () => {
    const metrics = signals(trajectory({ steps: [], exit: { ...exit('infrastructure-error'), turns: 0, usage: { promptTokens: 0, completionTokens: 0 } } }));
    expect(metrics.turns.solver).toEqual([0]);
    expect(metrics.tokens.solver).toEqual([0]);
  });
});

describe('stepMetricsSchema: older lines', () => {
  it('a metrics.jsonl line written before `stability` existed still parses, without it', () => {
    // removal-torn's step 0 was written by an engine without stability metrics (test/fixtures/runs/README.md).
    const [first] = readFileSync(new URL('../../fixtures/runs/removal-torn/metrics.jsonl', import.meta.url), 'utf8').split('\n');
    const json = JSON.parse(first!) as Record<string, unknown>;
    expect(json).not.toHaveProperty('stability');
    const line = stepMetricsSchema.parse(json);
    expect(line.stability).toBeUndefined();
    expect(line.turns.injector).toHaveLength(3);
  });

  it('a malformed stability is rejected, naming the field', () => {
    const line = { ...aggregateStepMetrics({
      step: 0, policyVersion: 0, startedAt: '2025-01-01T00:00:00.000Z', durationMs: 1, evidence: [], stageMs: { prepare: 0, score: 0, emit: 0 },
      samples: { written: 0, stale: 0, masked: 0, zeroAdvantageGroups: 0 }, trainer: null,
    }) };
    const result = stepMetricsSchema.safeParse({ ...line, stability: { outputTokens: { injector: [], solver: [] }, formatErrorRate: { injector: ['x'], solver: [] } } });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toEqual(expect.arrayContaining(['stability.formatErrorRate.injector.0', 'stability.sampledNll']));
  });
});
