import { describe, expect, it } from 'vitest';
import type { SolveAttempt } from '../../../src/corpus/solves-record.js';
import { higherOrderEpisodeId, isAttemptOf } from '../../../src/selfplay/episode-ids.js';
import { countsTowardCap, failedAttemptsOf, solvable } from '../../../src/selfplay/higher-order.js';

const attempt = (id: string, status: SolveAttempt['status']): SolveAttempt => ({ id, status, reward: status === 'solved' ? 1 : status === 'failed' ? -1 : null, exitStatus: 'submitted', reason: '' });

describe('order-2 candidates (method §6)', () => {
  it('are the failed attempts of the episode itself, in attempt order', () => {
    const attempts = [
      attempt('ep-a10', 'failed'), attempt('ep-a2', 'failed'), attempt('ep-a1', 'solved'), attempt('ep-a3', 'discarded'),
      attempt('other-a1', 'failed'), attempt('ep-o2-a2-a1', 'failed'),
    ];
    expect(failedAttemptsOf(attempts, 'ep').map((a) => a.id)).toEqual(['ep-a2', 'ep-a10']);
  });

  it.each([
    ['ep-a3', 'ep', true],
    ['ep-a12', 'ep', true],
    ['ep-o2-a3-a1', 'ep', false],
    ['ep-x-a1', 'ep', false],
    ['ep2-a1', 'ep', false],
  ])('isAttemptOf(%s, %s) is %s', (id, episode, expected) => {
    expect(isAttemptOf(id, episode)).toBe(expected);
  });

  it('an order-2 episode id names its parent and attempt', () => {
    expect(higherOrderEpisodeId('s1-pyledger-0-abcd', 's1-pyledger-0-abcd-a3')).toBe('s1-pyledger-0-abcd-o2-a3');
  });

  it.each([
    [{ status: 'completed', solverAttempts: 2 }, true],
    [{ status: 'completed', solverAttempts: 0 }, false],
    [{ status: 'discarded', solverAttempts: 0 }, true],
  ] as const)('%o uses up the cap: %s', (record, expected) => {
    expect(countsTowardCap(record)).toBe(expected);
  });

  it.each([
    [true, null, true],
    [false, 'inverse-redundancy', false],
    [false, 'concealment', false],
    [false, 'failing-tests', false],
    [false, 'min-files', false],
  ] as const)('an order-2 bug with valid=%s, failedCheck=%s is a Solver task: %s (never an invalid one)', (valid, failedCheck, expected) => {
    expect(solvable({ valid, failedCheck })).toBe(expected);
  });
});
