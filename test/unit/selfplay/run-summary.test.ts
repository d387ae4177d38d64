import { describe, expect, it } from 'vitest';
import { formatRunSummary, type SummaryLine } from '../../../src/selfplay/run-summary.js';
import { formatDuration } from '../../../src/selfplay/selfplay-progress.js';

const line = (step: number, overrides: Partial<SummaryLine> = {}): SummaryLine => ({
  step, policyVersion: step - 1, durationMs: 65_000, episodes: 3, discarded: 1, valid: 1, invalidByCheck: { concealment: 1 }, validRate: 0.5,
  solverAttempts: 4, solved: 1, solveRate: { order1: 0.25, order2: null }, higherOrder: 1, rewards: { injector: [0.325, -1], solver: [1, -1, -1, -1] },
  samples: { written: 6, stale: 0, masked: 0, zeroAdvantageGroups: 1 }, ...overrides,
});

describe('formatRunSummary', () => {
  it('prints one row per step and a total row, sorted by step', () => {
    const text = formatRunSummary([line(2, { validRate: 1, valid: 2, invalidByCheck: {} }), line(1)]);
    const rows = text.trimEnd().split('\n');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/^step\s+episodes\s+discarded\s+valid\s+solve o1\s+solve o2\s+order-2\s+r_inject\s+r_solve\s+samples\s+version\s+time$/);
    expect(rows[1]).toMatch(/^1\s+3\s+1\s+1 \(0\.50\)\s+0\.25\s+—\s+1\s+-0\.338\s+-0\.500\s+6\s+0\s+1m05s$/);
    expect(rows[2]).toMatch(/^2\s+3\s+1\s+2 \(1\.00\)/);
    expect(rows[3]).toMatch(/^all\s+6\s+2\s+3 \(0\.75\)\s+2\/8\s+2\s+-0\.338\s+-0\.500\s+12\s+1\s+2m10s$/);
  });

  it('says so when no step finished', () => {
    expect(formatRunSummary([])).toBe('no step finished yet\n');
  });

  it.each([
    [0, '0s'],
    [42_400, '42s'],
    [185_000, '3m05s'],
    [3_725_000, '1h02m'],
  ])('formatDuration(%i) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
