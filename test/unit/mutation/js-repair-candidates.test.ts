import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languageOfPath } from '../../../src/code/source-language.js';
import { applyCandidate, listCandidates } from '../../../src/mutation/mutate.js';
import type { Candidate } from '../../../src/mutation/mutation-operator.js';
import { JS_REPAIR_OPERATORS, REPAIR_OPERATORS, repairCandidates, repairOperatorsFor } from '../../../src/mutation/repair-candidates.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/javascript');
const SOURCES = ['cart.mjs', 'ranking.ts'].map((file) => [file, readFileSync(join(FIXTURES, file), 'utf8')] as const);

const newlines = (text: string) => text.split('\n').length - 1;

/** The lines a mutation occupies in the mutated text. */
function mutatedLines(source: string, candidate: Candidate) {
  const grown = newlines(candidate.replacement) - newlines(source.slice(candidate.start, candidate.end));
  return { start: candidate.line, end: candidate.endLine + grown };
}

/** `!(a < b)` → `(a < b)`: the same code as `a < b`, so an extra pair of parentheses around the mutated text counts as undone. */
function undoes(original: string, repaired: string, mutation: Candidate): boolean {
  if (repaired === original) return true;
  const text = original.slice(mutation.start, mutation.end);
  return repaired === `${original.slice(0, mutation.start)}(${text})${original.slice(mutation.end)}`;
}

describe('repairCandidates on JavaScript / TypeScript', () => {
  // Inverse mutation testing in miniature: every mutation of an invertible JS operator must be
  // undone by one repair candidate at the mutated lines.
  it.each(SOURCES.flatMap(([file, source]) => JS_REPAIR_OPERATORS.map((operator) => [operator, file, source] as const)))(
    'undoes every %s mutation of %s',
    (operator, file, source) => {
      const language = languageOfPath(file)!;
      const mutations = listCandidates(source, { operators: [operator], language });
      for (const mutation of mutations) {
        const mutated = applyCandidate(source, mutation);
        const repairs = repairCandidates(mutated, mutatedLines(source, mutation), { language });
        const rank = repairs.findIndex((repair) => undoes(source, applyCandidate(mutated, repair), mutation));
        expect(rank, `no repair undoes: ${mutation.description} (line ${mutation.line})`).toBeGreaterThanOrEqual(0);
        expect(rank).toBeLessThan(25);
      }
    },
  );

  it('uses only the JS catalogue on a JS module and only the Python one by default', () => {
    const source = 'export function inRange(x, max) {\n  return x <= max && !done;\n}\n';
    const repairs = repairCandidates(source, { start: 1, end: 3 }, { language: 'javascript' });
    expect(repairs.length).toBeGreaterThan(0);
    expect(repairs.every((repair) => (JS_REPAIR_OPERATORS as readonly string[]).includes(repair.operator))).toBe(true);
    expect(repairs[0]!.operator).toBe('js-comparison-swap');
    // Read as Python, the same text does not parse: no candidates, no crash.
    expect(repairCandidates(source, { start: 1, end: 3 })).toEqual([]);
  });

  it('picks the catalogue by language', () => {
    expect(repairOperatorsFor('python')).toBe(REPAIR_OPERATORS);
    for (const language of ['javascript', 'typescript', 'tsx'] as const) expect(repairOperatorsFor(language)).toBe(JS_REPAIR_OPERATORS);
  });
});
