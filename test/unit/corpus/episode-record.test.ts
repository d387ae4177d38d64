import { describe, expect, it } from 'vitest';
import { episodeRecordSchema } from '../../../src/corpus/episode-record.js';
import { discarded, makeEpisode } from './corpus-factory.js';

describe('episodeRecordSchema', () => {
  it.each([
    ['a completed order-1 episode', makeEpisode()],
    ['a discarded episode', discarded('ep-1')],
    ['a valid duplicate of an earlier bug of the run', makeEpisode({ bugId: 'bug-1', duplicateOf: 'bug-1' })],
    ['an invalid bug', makeEpisode({ valid: false, failedCheck: 'parser', solverAttempts: 0, solved: 0, rewards: { injector: -1, solver: [] } })],
    ['an order-2 episode', makeEpisode({ order: 2, parentBugId: 'bug-1', attemptOf: 'ep-0.solve-3', rewards: { injector: null, solver: [1, 1, 1, -1, -1, -1, -1, -1] } })],
  ])('accepts %s', (_name, record) => {
    expect(episodeRecordSchema.parse(record)).toEqual(record);
  });

  it.each([
    ['a discarded episode without a reason', { ...discarded('e'), discardReason: null }, /discardReason/],
    ['a completed episode with a discard reason', makeEpisode({ discardReason: 'x' }), /discardReason/],
    ['a reward on a discarded episode', { ...discarded('e'), rewards: { injector: -1, solver: [] } }, /earns no reward/],
    ['an order-2 episode without parent', makeEpisode({ order: 2, rewards: { injector: null, solver: [1, 1, 1, -1, -1, -1, -1, -1] } }), /parentBugId/],
    ['an injector reward on order 2', makeEpisode({ order: 2, parentBugId: 'bug-1' }), /Solver only/],
    ['more solved than attempts', makeEpisode({ solved: 9 }), /solved exceeds solverAttempts/],
    ['rewards that do not match the attempts', makeEpisode({ solverAttempts: 7, solved: 3 }), /one solver reward per scored attempt/],
    ['order 3', { ...makeEpisode(), order: 3 }, /order/],
    ['a duplicate that is not valid', makeEpisode({ valid: false, failedCheck: 'parser', duplicateOf: 'bug-1', solverAttempts: 0, solved: 0, rewards: { injector: -1, solver: [] } }), /only a valid bug duplicates/],
  ])('rejects %s', (_name, record, message) => {
    const result = episodeRecordSchema.safeParse(record);
    expect(result.success).toBe(false);
    expect(result.error?.message).toMatch(message);
  });
});
