import { describe, expect, it } from 'vitest';
import type { StoredBug } from '../../../src/corpus/read-stored-bug.js';
import { MIXED_STRATEGIES } from '../../../src/roles/injector-strategy.js';
import { planStep } from '../../../src/selfplay/stages/01-prepare.js';
import { stepVersion } from '../../../src/selfplay/run-step.js';

const settings = { episodesPerStep: 3, seed: 7, strategy: 'mixed' as const };

describe('planStep (stage 1)', () => {
  it('plans episodesPerStep episodes per repo with ids, seeds and strategies that depend only on the settings', () => {
    const plan = planStep({ step: 2, repos: ['pyledger', 'tiny'], settings });
    expect(plan).toHaveLength(6);
    expect(plan.map((p) => [p.repo, p.index])).toEqual([['pyledger', 0], ['pyledger', 1], ['pyledger', 2], ['tiny', 0], ['tiny', 1], ['tiny', 2]]);
    expect(new Set(plan.map((p) => p.id)).size).toBe(6);
    expect(plan.every((p) => /^s2-(pyledger|tiny)-\d-[0-9a-f]{8}$/.test(p.id))).toBe(true);
    expect(plan.every((p) => MIXED_STRATEGIES.includes(p.strategy as never))).toBe(true);
    expect(planStep({ step: 2, repos: ['pyledger', 'tiny'], settings })).toEqual(plan);
  });

  it.each([
    ['another step', { step: 3 }],
    ['another seed', { settings: { ...settings, seed: 8 } }],
  ])('gives different ids for %s', (_name, change) => {
    const a = planStep({ step: 2, repos: ['pyledger'], settings });
    const b = planStep({ step: 2, repos: ['pyledger'], settings, ...change });
    expect(a.map((p) => p.id).filter((id) => b.some((q) => q.id === id))).toEqual([]);
  });

  it('draws removal and history for mixed, and keeps a fixed strategy', () => {
    const many = planStep({ step: 1, repos: ['pyledger'], settings: { ...settings, episodesPerStep: 40 } });
    expect(new Set(many.map((p) => p.strategy))).toEqual(new Set(['removal', 'history']));
    expect(new Set(planStep({ step: 1, repos: ['pyledger'], settings: { ...settings, strategy: 'direct' } }).map((p) => p.strategy))).toEqual(new Set(['direct']));
  });

  it('plans history only where the repo has usable history, and notes the adapted episodes', () => {
    const note = 'history not planned on tiny (1 commit): its mixed episodes use removal';
    const wide = { ...settings, episodesPerStep: 40 };
    const free = planStep({ step: 1, repos: ['pyledger', 'tiny'], settings: wide });
    const plan = planStep({ step: 1, repos: ['pyledger', 'tiny'], settings: wide, noHistory: new Map([['tiny', note]]) });
    const of = (p: typeof plan, repo: string) => p.filter((e) => e.repo === repo);
    // pyledger keeps its mix, draw for draw; tiny plans removal only, and says so where it drew history.
    expect(of(plan, 'pyledger')).toEqual(of(free, 'pyledger'));
    expect(new Set(of(plan, 'tiny').map((p) => p.strategy))).toEqual(new Set(['removal']));
    const drewHistory = of(free, 'tiny').map((p) => p.strategy === 'history');
    expect(drewHistory.some(Boolean)).toBe(true);
    expect(of(plan, 'tiny').map((p) => p.strategyNote === note)).toEqual(drewHistory);
    expect(of(plan, 'tiny').filter((p) => p.strategyNote === undefined).every((p) => !('strategyNote' in p))).toBe(true);
    // Ids and seeds do not move with the adaptation (a resumed run finds its episodes).
    expect(plan.map((p) => [p.id, p.seed])).toEqual(free.map((p) => [p.id, p.seed]));
    // A strategy named outright is run as asked.
    expect(new Set(planStep({ step: 1, repos: ['tiny'], settings: { ...wide, strategy: 'history' }, noHistory: new Map([['tiny', note]]) }).map((p) => p.strategy))).toEqual(new Set(['history']));
  });

  it('solve-only mode takes the corpus bugs round-robin across steps and skips repos without bugs', () => {
    const bug = (id: string) => ({ id, metadata: { strategy: 'history' } }) as unknown as StoredBug;
    const corpus = new Map([['pyledger', [bug('bug-a'), bug('bug-b')]], ['tiny', []]]);
    const pick = (step: number) => planStep({ step, repos: ['pyledger', 'tiny'], settings: { ...settings, episodesPerStep: 3 }, corpus }).map((p) => p.corpusBug!.id);
    expect(pick(1)).toEqual(['bug-a', 'bug-b', 'bug-a']);
    expect(pick(2)).toEqual(['bug-b', 'bug-a', 'bug-b']);
    expect(planStep({ step: 1, repos: ['pyledger'], settings, corpus })[0]!.strategy).toBe('history');
  });
});

describe('stepVersion', () => {
  it.each([
    [[], 4, 4],
    [[{ policyVersion: 2 }, { policyVersion: 2 }], 3, 2],
    [[{ policyVersion: 1 }, { policyVersion: 2 }], 5, 2],
  ])('records %j with the policy at %i: the step is version %i', (records, current, expected) => {
    expect(stepVersion(records, current)).toBe(expected);
  });
});
