import { describe, expect, it } from 'vitest';
import { episodeRecordSchema } from '../../../src/corpus/episode-record.js';
import { buildEpisodeRecord, scoreEpisode, type InjectorVerdict } from '../../../src/selfplay/stages/05-score.js';

type Status = 'solved' | 'failed' | 'discarded';
const attempts = (...statuses: Status[]) => statuses.map((status) => ({ status, reward: status === 'solved' ? 1 : status === 'failed' ? -1 : null }) as const);
const solvedOf8 = (k: number) => attempts(...Array.from({ length: 8 }, (_, i): Status => (i < k ? 'solved' : 'failed')));

const valid: InjectorVerdict = { kind: 'valid' };

describe('scoreEpisode (method §5 over the scored attempts)', () => {
  it.each([
    [0, -0.8],
    [1, 0.775],
    [2, 0.55],
    [3, 0.325],
    [4, 0.1],
    [5, -0.125],
    [6, -0.35],
    [7, -0.575],
    [8, -0.8],
  ])('a valid bug solved %i times out of 8 earns the Injector %f', (k, expected) => {
    const score = scoreEpisode({ verdict: valid, attempts: solvedOf8(k), attemptsWanted: 8, alpha: 0.8 });
    expect(score.injector).toBeCloseTo(expected, 10);
    expect(score.solver).toEqual(solvedOf8(k).map((a) => a.reward));
    expect(score).toMatchObject({ scored: 8, solved: k, discard: null });
  });

  it.each<[string, InjectorVerdict, ReturnType<typeof attempts>, number, Partial<ReturnType<typeof scoreEpisode>>]>([
    ['nothing submitted', { kind: 'no-artifact' }, [], 8, { injector: -1, solver: [], scored: 0, discard: null }],
    ['an invalid artifact', { kind: 'invalid', failedCheck: 'concealment' }, [], 8, { injector: -1, solver: [] }],
    ['discarded attempts count nowhere', valid, attempts('solved', 'discarded', 'failed', 'discarded'), 4, { injector: 1 - 1.8 * 0.5, solver: [1, -1], scored: 2, solved: 1 }],
    ['no attempt scored: discarded, no reward', valid, attempts('discarded', 'discarded'), 2, { injector: null, solver: [], discard: { category: 'solve:no-scored-attempt', detail: 'none of the 2 Solver attempt(s) could be scored' } }],
    ['no solving asked (corpus): no injector reward', valid, [], 0, { injector: null, solver: [], discard: null }],
    ['an order-2 bug trains the Solver only', { kind: 'none' }, attempts('solved', 'failed'), 2, { injector: null, solver: [1, -1], solved: 1 }],
  ])('%s', (_name, verdict, list, wanted, expected) => {
    expect(scoreEpisode({ verdict, attempts: list, attemptsWanted: wanted, alpha: 0.8 })).toMatchObject(expected);
  });

  it('uses the configured alpha', () => {
    expect(scoreEpisode({ verdict: valid, attempts: solvedOf8(0), attemptsWanted: 8, alpha: 0.5 }).injector).toBe(-0.5);
  });
});

describe('buildEpisodeRecord', () => {
  const identity = { id: 's1-pyledger-0-abcd1234', step: 1, repo: 'pyledger', strategy: 'removal', order: 1 as const, parentBugId: null, attemptOf: null, policyVersion: 0 };
  const base = { identity, bugId: 'bug-1', valid: true, failedCheck: null, durationsMs: { inject: 1, validate: 2, solve: 3, total: 7 }, turns: 9, tokens: 0 };

  it('records a scored episode with its rewards', () => {
    const score = scoreEpisode({ verdict: valid, attempts: attempts('solved', 'failed'), attemptsWanted: 2, alpha: 0.8 });
    const record = buildEpisodeRecord({ ...base, score, discard: null });
    expect(episodeRecordSchema.parse(record)).toMatchObject({ status: 'completed', solverAttempts: 2, solved: 1, rewards: { injector: 1 - 1.8 * 0.5, solver: [1, -1] } });
  });

  it.each([
    ['an explicit discard', { category: 'inject:docker-unavailable', detail: 'the Docker engine is not reachable' }, null],
    ['a score that could not be computed', null, scoreEpisode({ verdict: valid, attempts: attempts('discarded'), attemptsWanted: 1, alpha: 0.8 })],
  ])('a discard (%s) carries its reason and no reward', (_name, discard, score) => {
    const record = buildEpisodeRecord({ ...base, score, discard });
    expect(episodeRecordSchema.parse(record)).toMatchObject({ status: 'discarded', solverAttempts: 0, rewards: { injector: null, solver: [] } });
    expect(record.discardReason).toMatch(/^(inject:docker-unavailable|solve:no-scored-attempt): /);
  });
});
