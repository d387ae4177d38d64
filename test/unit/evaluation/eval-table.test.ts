import { describe, expect, it } from 'vitest';
import { evalTables, formatEvalTables, type InstanceOutcome } from '../../../src/evaluation/eval-table.js';
import { passAtK } from '../../../src/evaluation/pass-at-k.js';

describe('passAtK', () => {
  it.each([
    [4, 0, 1, 0],
    [4, 4, 1, 1],
    [4, 1, 1, 0.25],
    [4, 1, 2, 0.5], // 1 − C(3,2)/C(4,2) = 1 − 3/6
    [8, 2, 4, 1 - (6 * 5 * 4 * 3) / (8 * 7 * 6 * 5)],
    [2, 1, 4, 1], // k clipped to the 2 scored attempts
    [3, 0, 8, 0],
  ])('n=%i c=%i k=%i → %f', (n, c, k, expected) => {
    expect(passAtK(n, c, k)).toBeCloseTo(expected, 12);
  });

  it('is null without a scored attempt', () => {
    expect(passAtK(0, 0, 1)).toBeNull();
  });
});

const outcome = (over: Partial<InstanceOutcome>): InstanceOutcome => ({ instanceId: 'x', repo: 'r', kind: 'mined', status: 'scored', scored: 2, solved: 0, ...over });

describe('evalTables', () => {
  const outcomes = [
    outcome({ instanceId: 'a', repo: 'pyrange', kind: 'mined', solved: 2 }),
    outcome({ instanceId: 'b', repo: 'pyrange', kind: 'mined', solved: 1 }),
    outcome({ instanceId: 'c', repo: 'pyledger', kind: 'negate-condition', solved: 0 }),
    outcome({ instanceId: 'd', repo: 'pyledger', kind: 'negate-condition', status: 'invalid', scored: 0 }),
  ];

  it('gives one row per repo and per kind, invalid instances counted but left out of the rates', () => {
    const tables = evalTables(outcomes, 2);
    expect(tables.all).toEqual({ group: 'all', instances: 4, invalid: 1, attempts: 6, solved: 3, solveRate: 0.5, passAt1: 0.5, passAtK: (1 + 1 + 0) / 3 });
    expect(tables.byRepo.map((row) => [row.group, row.instances, row.solveRate])).toEqual([['pyledger', 2, 0], ['pyrange', 2, 0.75]]);
    expect(tables.byKind.map((row) => [row.group, row.invalid, row.passAtK])).toEqual([['mined', 0, 1], ['negate-condition', 1, 0]]);
  });

  it('prints both tables, one pass@ column when k is 1', () => {
    const text = formatEvalTables(evalTables(outcomes, 1), 1);
    expect(text).toContain('repo      instances  invalid  attempts  solved  solve rate  pass@1');
    expect(text).not.toContain('pass@1  pass@1');
    expect(text).toMatch(/^mined\s+2\s+0\s+4\s+3\s+75\.0 %\s+75\.0 %$/m);
  });
});
