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
