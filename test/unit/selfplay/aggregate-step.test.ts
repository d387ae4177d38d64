import { describe, expect, it } from 'vitest';
import { countEpisodes } from '../../../src/selfplay/episode-counts.js';
import { aggregateStepMetrics } from '../../../src/selfplay/aggregate-step.js';
import type { EpisodeEvidence } from '../../../src/selfplay/step-evidence.js';
import { stepMetricsSchema } from '../../../src/selfplay/step-metrics.js';
import { discarded, makeEpisode } from '../corpus/corpus-factory.js';
import { exit, trajectory } from '../rl/trajectory-factory.js';

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
      bug: { files: 2, lines: 14, kinds: ['remove-lines', 'replace-lines'] },
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
});
