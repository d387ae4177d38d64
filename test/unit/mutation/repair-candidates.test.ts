import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyCandidate, listCandidates } from '../../../src/mutation/mutate.js';
import type { Candidate } from '../../../src/mutation/mutation-operator.js';
import { REPAIR_OPERATORS, repairCandidates } from '../../../src/mutation/repair-candidates.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/python');
const SOURCES = ['inventory.py', 'text_stats.py'].map((file) => [file, readFileSync(join(FIXTURES, file), 'utf8')] as const);

const newlines = (text: string) => text.split('\n').length - 1;

/** The lines a mutation occupies in the mutated text. */
function mutatedLines(source: string, candidate: Candidate) {
  const grown = newlines(candidate.replacement) - newlines(source.slice(candidate.start, candidate.end));
  return { start: candidate.line, end: candidate.endLine + grown };
}

describe('repairCandidates', () => {
  // Inverse mutation testing in miniature: every invertible mutation of the fixtures must be undone
  // exactly by one repair candidate at the mutated lines.
  it.each(SOURCES.flatMap(([file, source]) => REPAIR_OPERATORS.map((operator) => [operator, file, source] as const)))(
    'undoes every %s mutation of %s',
    (operator, _file, source) => {
      const mutations = listCandidates(source, { operators: [operator] });
      const ranks: number[] = [];
      for (const mutation of mutations) {
        const mutated = applyCandidate(source, mutation);
        const repairs = repairCandidates(mutated, mutatedLines(source, mutation));
        const rank = repairs.findIndex((repair) => applyCandidate(mutated, repair) === source);
        expect(rank, `no repair undoes: ${mutation.description} (line ${mutation.line})`).toBeGreaterThanOrEqual(0);
        ranks.push(rank);
      }
      // Suspicious lines are few, so the right repair sits near the top.
      for (const rank of ranks) expect(rank).toBeLessThan(25);
    },
  );

  it('ranks cheap swaps before structural edits and dedupes', () => {
    const source = 'def f(a, b):\n    if a < b and g(a, b):\n        return a + 1\n    else:\n        return b\n';
    const repairs = repairCandidates(source, { start: 2, end: 5 });
    const operators = repairs.map((r) => r.operator);
    expect(operators.indexOf('comparison-swap')).toBe(0);
    expect(operators.indexOf('invert-if-else')).toBe(operators.length - 1);
    const texts = repairs.map((r) => applyCandidate(source, r));
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('takes a list of suspicious lines and a limit', () => {
    const source = 'def f(a, b):\n    x = a < b\n    y = a == b\n    return x or y\n';
    const onLine3 = repairCandidates(source, [3]);
    expect(onLine3.map((r) => applyCandidate(source, r).split('\n')[2])).toEqual(['    y = a != b']);
    expect(repairCandidates(source, [2, 4])).toHaveLength(3);
    expect(repairCandidates(source, [2, 4], { limit: 1 })).toHaveLength(1);
    expect(repairCandidates(source, [])).toEqual([]);
    expect(repairCandidates(source, [2], { operators: ['boolean-swap'] })).toEqual([]);
  });
});
