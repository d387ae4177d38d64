import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyCandidate } from '../../../../src/mutation/apply-candidates.js';
import { applyEdit } from '../../../../src/tools/line-match.js';
import { editBlockFor } from '../../../../src/policy/procedural/solver/edit-block.js';
import { planRepairs, TIER_PENALTY } from '../../../../src/policy/procedural/solver/plan-repairs.js';
import { rankLines } from '../../../../src/policy/procedural/solver/rank-lines.js';
import { lookahead } from '../../../../src/policy/procedural/solver/repair-round.js';
import { testSelectors } from '../../../../src/policy/procedural/solver/try-repair.js';
import { readRunReport } from '../../../../src/policy/procedural/solver/read-run-report.js';
import { REPORT_SCRIPT } from '../../../../src/policy/procedural/solver/report-script.js';
import { seededRng } from '../../../../src/util/seeded-rng.js';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/coverage');
const FILE = 'shop/pricing.py';
const source = readFileSync(join(FIXTURES, 'sample', FILE), 'utf8');
const report = readRunReport(
  execFileSync('python3', ['-c', REPORT_SCRIPT, '--log', 'pytest.log', '--cov', 'coverage.json'], { cwd: FIXTURES, encoding: 'utf8' }),
)!;
const plan = (seed: number, tried?: Set<string>) =>
  planRepairs(rankLines(report, seededRng(seed)), new Map([[FILE, source]]), { rng: seededRng(seed), ...(tried ? { tried } : {}) });
const fixesLine26 = '    return sum(prices) / len(prices) if prices else 0.0';

describe('planRepairs on the coverage fixture', () => {
  it('orders attempts by priority and makes each edit a unique whole-line block', () => {
    const attempts = plan(1);
    const priorities = attempts.map((a) => a.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    for (const attempt of attempts) {
      const edited = applyEdit(source, attempt.edit.search, attempt.edit.replace);
      expect(edited.status, attempt.candidate.description).toBe('edited');
      if (edited.status === 'edited') expect(edited.text).toBe(applyCandidate(source, attempt.candidate));
    }
    expect(new Set(attempts.map((a) => a.key)).size).toBe(attempts.length);
  });

  it('tries the real fixes early: the raising line first, the comparison among the first swaps', () => {
    const attempts = plan(1);
    const removeNot = attempts.findIndex((a) => a.edit.replace === fixesLine26);
    // `/` → `*` and `/` → `//` outrank it (arithmetic comes before remove-not), nothing else does.
    expect(removeNot).toBe(2);
    expect(attempts[removeNot]!.priority).toBeCloseTo(attempts[0]!.priority - 2 * TIER_PENALTY, 12);
    const comparison = attempts.findIndex((a) => a.edit.search === '    if quantity > 100:' && a.edit.replace === '    if quantity >= 100:');
    expect(comparison).toBeGreaterThan(removeNot);
    expect(comparison).toBeLessThan(12);
  });

  it('is the same for the same seed, and skips edits already tried', () => {
    expect(plan(3).map((a) => a.key)).toEqual(plan(3).map((a) => a.key));
    const first = plan(3);
    const rest = plan(3, new Set(first.slice(0, 4).map((a) => a.key)));
    expect(rest.map((a) => a.key)).toEqual(first.slice(4).map((a) => a.key));
  });

  it('plans nothing for a file it has not read', () => {
    expect(planRepairs(rankLines(report, seededRng(1)), new Map(), { rng: seededRng(1) })).toEqual([]);
  });
});

describe('editBlockFor', () => {
  const text = ['def f(x):', '    return x + 1', '', 'def g(x):', '    return x + 1', ''].join('\n');
  const plusAt = (n: number): number => text.split('+', n).join('+').length;

  it.each([
    // The line occurs twice: the block grows by a line on each side until it is unique, and past
    // the blank line it would end on (the tool would read it as an optional final newline).
    ['a duplicated line', { start: plusAt(1), end: plusAt(1) + 1, replacement: '-' }, { search: 'def f(x):\n    return x + 1\n\ndef g(x):', replace: 'def f(x):\n    return x - 1\n\ndef g(x):', line: 1 }],
    ['the second copy', { start: plusAt(2), end: plusAt(2) + 1, replacement: '-' }, { search: 'def g(x):\n    return x + 1', replace: 'def g(x):\n    return x - 1', line: 4 }],
  ])('%s', (_case, edit, expected) => {
    const block = editBlockFor(text, edit)!;
    expect(block).toEqual(expected);
    expect(applyEdit(text, block.search, block.replace)).toMatchObject({ status: 'edited', text: applyCandidate(text, edit) });
  });

  it('returns null for an edit that changes nothing', () => {
    expect(editBlockFor(text, { start: 0, end: 3, replacement: 'def' })).toBeNull();
  });

  it('spans every line a multi-line edit touches', () => {
    const src = 'if a:\n    x = 1\nelse:\n    x = 2\n';
    const block = editBlockFor(src, { start: 0, end: src.length - 1, replacement: 'if not a:\n    x = 2\nelse:\n    x = 1' })!;
    expect(block).toEqual({ search: 'if a:\n    x = 1\nelse:\n    x = 2', replace: 'if not a:\n    x = 2\nelse:\n    x = 1', line: 1 });
  });
});

describe('lookahead after a partial fix', () => {
  it('judges the other edits of its line first, then the next planned ones', () => {
    const attempts = plan(1);
    const partial = attempts.find((a) => a.candidate.line === 6)!;
    const queue = attempts.filter((a) => a !== partial);
    const picked = lookahead(queue, partial);
    const sameLine = queue.filter((a) => a.candidate.line === 6);
    expect(sameLine.length).toBeGreaterThan(0);
    expect(picked.slice(0, sameLine.length)).toEqual(sameLine);
    expect(picked).toEqual([...sameLine, ...queue.filter((a) => a.candidate.line !== 6)].slice(0, picked.length));
    expect(picked.length).toBe(Math.min(8, queue.length));
  });
});

describe('testSelectors', () => {
  it.each([
    [['t.py::test_a[1]', 't.py::test_a[2]', 't.py::C::test_b'], ['t.py::test_a', 't.py::C::test_b']],
    [['t.py::test_p[a b]', 't.py'], ['t.py::test_p', 't.py']],
  ])('%j → %j', (ids, expected) => {
    expect(testSelectors(ids)).toEqual(expected);
  });
});
