import { describe, expect, it } from 'vitest';
import { assignAdvantages } from '../../../src/rl/groups.js';
import type { EpisodeEvidence } from '../../../src/selfplay/step-evidence.js';
import { buildStepSamples } from '../../../src/selfplay/step-samples.js';
import { makeEpisode } from '../corpus/corpus-factory.js';
import { exit, header, trajectory } from '../rl/trajectory-factory.js';

const injectorTrajectory = (id: string) => trajectory({ header: header({ role: 'injector', episodeId: `${id}-inject` }) });
const solverTrajectory = (id: string, status: Parameters<typeof exit>[0] = 'submitted') => trajectory({ header: header({ episodeId: id }), exit: exit(status) });

function evidence(id: string, rewards: number[], overrides: Partial<EpisodeEvidence> = {}): EpisodeEvidence {
  const solved = rewards.filter((r) => r > 0).length;
  return {
    record: makeEpisode({ id, bugId: `bug-${id}`, strategy: 'removal', rewards: { injector: 0.1, solver: rewards }, solverAttempts: rewards.length, solved }),
    commit: 'c0',
    injector: injectorTrajectory(id),
    attempts: rewards.map((reward, i) => ({
      attempt: { id: `${id}-a${i + 1}`, status: reward > 0 ? 'solved' : 'failed', reward, exitStatus: 'submitted', reason: '' },
      trajectory: solverTrajectory(`${id}-a${i + 1}`),
    })),
    bug: null,
    ...overrides,
  };
}

describe('buildStepSamples', () => {
  it('groups Injector rollouts by repo/commit/strategy and Solver attempts by bug and order', () => {
    const samples = buildStepSamples([evidence('e1', [1, -1]), evidence('e2', [-1, -1])], { trainRoles: 'both', limitHits: 'fail' });
    expect(samples.map((s) => [s.id, s.role, s.groupId, s.reward])).toEqual([
      ['injector:e1-inject', 'injector', 'injector:pyledger@c0:removal', 0.1],
      ['solver:e1-a1', 'solver', 'solver:bug-e1:order-1', 1],
      ['solver:e1-a2', 'solver', 'solver:bug-e1:order-1', -1],
      ['injector:e2-inject', 'injector', 'injector:pyledger@c0:removal', 0.1],
      ['solver:e2-a1', 'solver', 'solver:bug-e2:order-1', -1],
      ['solver:e2-a2', 'solver', 'solver:bug-e2:order-1', -1],
    ]);
    const { groups } = assignAdvantages(samples, 'rloo');
    expect(groups.map((g) => [g.groupId, g.size, g.zeroAdvantage])).toEqual([
      ['injector:pyledger@c0:removal', 2, true],
      ['solver:bug-e1:order-1', 2, false],
      ['solver:bug-e2:order-1', 2, true],
    ]);
  });

  it.each([
    ['injector', ['injector']],
    ['solver', ['solver', 'solver']],
    ['both', ['injector', 'solver', 'solver']],
  ] as const)('--train-roles %s emits only those roles', (trainRoles, roles) => {
    expect(buildStepSamples([evidence('e1', [1, -1])], { trainRoles, limitHits: 'fail' }).map((s) => s.role)).toEqual(roles);
  });

  it('masks a discarded attempt (no reward) and skips one without a trajectory', () => {
    const base = evidence('e1', [1]);
    const item: EpisodeEvidence = {
      ...base,
      attempts: [
        ...base.attempts,
        { attempt: { id: 'e1-a2', status: 'discarded', reward: null, exitStatus: 'submitted', reason: 'grade:sandbox-failed: x' }, trajectory: solverTrajectory('e1-a2') },
        { attempt: { id: 'e1-a3', status: 'discarded', reward: null, exitStatus: 'cancelled', reason: 'engine-stopped: x' }, trajectory: solverTrajectory('e1-a3', 'cancelled') },
        { attempt: { id: 'e1-a4', status: 'discarded', reward: null, exitStatus: null, reason: 'engine-stopped: x' }, trajectory: null },
      ],
    };
    const solver = buildStepSamples([item], { trainRoles: 'solver', limitHits: 'fail' });
    expect(solver.map((s) => [s.id, s.masked, s.reward, s.finishReason])).toEqual([
      ['solver:e1-a1', false, 1, 'submitted'],
      ['solver:e1-a2', true, 0, 'infrastructure-error'],
      ['solver:e1-a3', true, 0, 'cancelled'],
    ]);
  });

  it('gives no sample for a discarded episode, nor an injector sample for an order-2 one', () => {
    const gone = evidence('e1', [1]);
    gone.record = { ...gone.record, status: 'discarded', discardReason: 'inject:docker-unavailable: x', rewards: { injector: null, solver: [] }, solverAttempts: 0, solved: 0 };
    const order2 = evidence('e2', [-1]);
    order2.record = { ...order2.record, order: 2, parentBugId: 'bug-e1', attemptOf: 'e1-a1', rewards: { injector: null, solver: [-1] } };
    expect(buildStepSamples([gone, order2], { trainRoles: 'both', limitHits: 'fail' }).map((s) => [s.id, s.groupId])).toEqual([['solver:e2-a1', 'solver:bug-e2:order-2']]);
  });

  it.each([
    ['fail', false, null],
    ['mask', true, 'limit hit: turn-limit'],
  ] as const)('--limit-hits %s: a Solver attempt that hit the turn limit is masked: %s', (limitHits, masked, maskReason) => {
    const base = evidence('e1', [1, -1]);
    base.attempts[1]!.attempt.exitStatus = 'turn-limit';
    base.attempts[1]!.trajectory = solverTrajectory('e1-a2', 'turn-limit');
    const samples = buildStepSamples([base], { trainRoles: 'solver', limitHits });
    expect(samples.map((s) => [s.id, s.reward, s.masked, s.maskReason])).toEqual([
      ['solver:e1-a1', 1, false, null],
      ['solver:e1-a2', -1, masked, maskReason],
    ]);
    // fail: the attempt stays in its group, so the solved one gets a positive advantage; mask: alone in the baseline, no signal.
    const { groups } = assignAdvantages(samples, 'rloo');
    expect(groups[0]).toMatchObject({ unmasked: masked ? 1 : 2, zeroAdvantage: masked });
  });
});
