import { describe, expect, it } from 'vitest';
import { injectorGroupId, solverGroupId } from '../../../src/rl/group-id.js';
import { assignAdvantages, type GroupMember } from '../../../src/rl/groups.js';

const solver = (groupId: string, reward: number, masked = false): GroupMember & { id: string } => ({
  id: `${groupId}-${reward}-${masked}`,
  role: 'solver',
  groupId,
  reward,
  masked,
});

describe('group ids', () => {
  it('separate orders and strategies', () => {
    expect(solverGroupId('bug-1', 1)).toBe('solver:bug-1:order-1');
    expect(solverGroupId('bug-1', 2)).not.toBe(solverGroupId('bug-1', 1));
    expect(injectorGroupId('pyledger', 'abc', 'removal')).toBe('injector:pyledger@abc:removal');
    expect(injectorGroupId('pyledger', 'abc', 'history')).not.toBe(injectorGroupId('pyledger', 'abc', 'removal'));
  });
});

describe('assignAdvantages', () => {
  it('computes advantages per group and keeps the input order', () => {
    const samples = [solver('a', 1), solver('b', 1), solver('a', -1), solver('b', 1)];
    const { samples: out, groups } = assignAdvantages(samples, 'dr-grpo');
    expect(out.map((s) => s.advantage)).toEqual([1, 0, -1, 0]);
    expect(out.map((s) => s.id)).toEqual(samples.map((s) => s.id));
    expect(groups).toEqual([
      { role: 'solver', groupId: 'a', size: 2, unmasked: 2, meanReward: 0, zeroAdvantage: false },
      { role: 'solver', groupId: 'b', size: 2, unmasked: 2, meanReward: 1, zeroAdvantage: true },
    ]);
  });

  it('leaves masked members out of the statistics and gives them 0', () => {
    // Without the mask the infrastructure victim (reward −1) would lower the baseline of the others.
    const samples = [solver('g', 1), solver('g', -1), solver('g', -1, true), solver('g', -1)];
    const { samples: out, groups } = assignAdvantages(samples, 'rloo');
    expect(out.map((s) => s.advantage)).toEqual([2, -1, 0, -1]);
    expect(groups[0]).toMatchObject({ size: 4, unmasked: 3, meanReward: -1 / 3, zeroAdvantage: false });
  });

  it.each([
    ['one unmasked member', [solver('g', 1), solver('g', -1, true)], 1],
    ['only masked members', [solver('g', 1, true), solver('g', -1, true)], null],
    ['equal rewards', [solver('g', -1), solver('g', -1), solver('g', -1)], -1],
  ] as const)('flags a zero-advantage group: %s', (_name, samples, meanReward) => {
    const { samples: out, groups } = assignAdvantages(samples, 'grpo');
    expect(out.every((s) => s.advantage === 0)).toBe(true);
    expect(groups[0]).toMatchObject({ zeroAdvantage: true, meanReward });
  });

  it('never mixes roles that share a group id', () => {
    const samples: GroupMember[] = [
      { role: 'solver', groupId: 'x', reward: 1, masked: false },
      { role: 'injector', groupId: 'x', reward: -1, masked: false },
    ];
    const { groups } = assignAdvantages(samples, 'rloo');
    expect(groups.map((g) => [g.role, g.size])).toEqual([['solver', 1], ['injector', 1]]);
  });
});
