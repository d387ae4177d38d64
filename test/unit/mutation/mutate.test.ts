import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePython } from '../../../src/code/python/parse-python.js';
import { appliedMutationSchema, recordMutation } from '../../../src/mutation/applied-mutation.js';
import { mutationChecker } from '../../../src/mutation/check-mutation.js';
import { applyCandidate, applyCandidates, listCandidates, pickCandidates } from '../../../src/mutation/mutate.js';
import { candidateSchema, type Candidate } from '../../../src/mutation/mutation-operator.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { seededRng } from '../../../src/util/seeded-rng.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/python');
const inventory = readFileSync(join(FIXTURES, 'inventory.py'), 'utf8');
const textStats = readFileSync(join(FIXTURES, 'text_stats.py'), 'utf8');

/** Compile every text with CPython; returns the indices that fail, with the error. */
function cpythonRejects(texts: string[]): string[] {
  const script = 'import json, sys\nbad = []\nfor i, text in enumerate(json.load(sys.stdin)):\n    try:\n        compile(text, f"mutant{i}", "exec")\n    except SyntaxError as e:\n        bad.append(f"{i}: {e}")\nprint(json.dumps(bad))';
  return JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 64 << 20 })) as string[];
}

describe('listCandidates', () => {
  it.each([['inventory.py', inventory], ['text_stats.py', textStats]])('every candidate of %s compiles under CPython, changes the text and adds no comment', (_name, source) => {
    const candidates = listCandidates(source);
    expect(candidates.length).toBeGreaterThan(80);
    const texts = candidates.map((candidate) => applyCandidate(source, candidate));
    expect(cpythonRejects(texts)).toEqual([]);
    expect(new Set(texts).size).toBe(texts.length);
    for (const text of texts) expect(text).not.toBe(source);
    const comments = (text: string) => text.split('\n').filter((line) => line.trim().startsWith('#')).length;
    for (const text of texts) expect(comments(text)).toBeLessThanOrEqual(comments(source));
    for (const candidate of candidates) {
      expect(candidateSchema.parse(candidate)).toEqual(candidate);
      expect(candidate.replacement).not.toContain('#');
    }
  });

  it('offers every operator somewhere in the fixtures', () => {
    const used = new Set([...listCandidates(inventory), ...listCandidates(textStats)].map((candidate) => candidate.operator));
    expect([...used].sort()).toEqual([
      'arithmetic-swap', 'augmented-assignment-swap', 'boolean-swap', 'bound-off-by-one', 'comparison-swap', 'constant-change',
      'integer-off-by-one', 'invert-if-else', 'negate-condition', 'remove-else-branch', 'remove-function-body', 'remove-guard-clause',
      'remove-if-block', 'remove-loop', 'remove-not', 'remove-statement', 'string-literal', 'swap-arguments',
    ]);
  });

  it('is stable: same input, same list, ordered by position', () => {
    const first = listCandidates(textStats);
    expect(listCandidates(textStats)).toEqual(first);
    for (let i = 1; i < first.length; i++) expect(first[i]!.start).toBeGreaterThanOrEqual(first[i - 1]!.start);
  });

  it.each<[string, Parameters<typeof listCandidates>[1], (c: Candidate) => boolean]>([
    ['kinds', { kinds: ['removal'] }, (c) => c.kind === 'removal'],
    ['operators', { operators: ['comparison-swap', 'boolean-swap'] }, (c) => ['comparison-swap', 'boolean-swap'].includes(c.operator)],
    ['lineRange (overlap)', { lineRange: { start: 45, end: 54 } }, (c) => c.endLine >= 45 && c.line <= 54],
    ['withinLines as a list (anchor line)', { withinLines: [48, 51, 52] }, (c) => [48, 51, 52].includes(c.line)],
    ['withinLines as a range', { withinLines: { start: 63, end: 67 } }, (c) => c.line >= 63 && c.line <= 67],
    ['entities', { entities: ['Inventory.remove_stock'] }, (c) => c.line >= 45 && c.endLine <= 54],
  ])('filters by %s', (_name, query, holds) => {
    const all = listCandidates(inventory);
    const some = listCandidates(inventory, query);
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all.length);
    for (const candidate of some) expect(holds(candidate), candidate.description).toBe(true);
    // A filter never invents a mutation: each result is one the unfiltered list also yields (maybe
    // under another operator, which won the tie there).
    const texts = new Set(all.map((candidate) => applyCandidate(inventory, candidate)));
    for (const candidate of some) expect(texts.has(applyCandidate(inventory, candidate))).toBe(true);
  });

  it.each<[string, Parameters<typeof listCandidates>[1]]>([
    ['an unknown operator', { operators: ['flip-everything'] }],
    ['an unknown entity', { entities: ['Nope.nothing'] }],
  ])('rejects %s with a usage error', (_name, query) => {
    expect(() => listCandidates(inventory, query)).toThrow(EngineError);
    try {
      listCandidates(inventory, query);
    } catch (error) {
      expect((error as EngineError).code).toBe('usage');
    }
  });

  it('anchors a candidate at the first line of code it replaces, for coverage filters', () => {
    const source = 'def f(x):\n    """Doc."""\n    # Reject None.\n    if x is None:\n        return 0\n    return x + 1\n';
    const anchors = listCandidates(source, { kinds: ['removal'] }).map((c) => [c.operator, c.line, c.endLine]);
    // The body starts after the docstring; the deletion of the `if` also takes the comment above.
    expect(anchors).toEqual([['remove-function-body', 4, 6], ['remove-if-block', 4, 5]]);
    expect(listCandidates(source, { withinLines: [4], operators: ['remove-guard-clause'] })).toHaveLength(1);
  });

  it('has no candidates for a module that does not parse', () => {
    expect(listCandidates('def f(:\n    return a < b\n')).toEqual([]);
  });

  it('records what was applied for the bug metadata', () => {
    const [candidate] = listCandidates(inventory, { operators: ['boolean-swap'] });
    const record = recordMutation(candidate!, 'src/inventory.py');
    expect(appliedMutationSchema.parse(record)).toEqual({
      operator: 'boolean-swap', kind: 'operator', file: 'src/inventory.py', line: 73, endLine: 73,
      description: 'boolean `and` → `or`',
    });
  });
});

describe('mutationChecker', () => {
  const source = 'class A:\n    def f(self, x):\n        if x:\n            y = 1\n        return x\n\n\ndef g():\n    return 1\n';
  const tree = parsePython(source);
  const check = mutationChecker(source, tree);
  const at = (text: string) => source.indexOf(text);
  const line = (text: string) => ({ start: at(text), end: at(text) + text.length });

  it.each<[string, boolean, { start: number; end: number; replacement: string }[]]>([
    ['a valid swap inside a method', true, [{ ...line('return x'), replacement: 'return not x' }]],
    ['a broken expression inside a method', false, [{ ...line('return x'), replacement: 'return (x' }]],
    ['a block left empty', false, [{ ...line('            y = 1\n'), replacement: '' }]],
    ['a comment added', false, [{ ...line('return x'), replacement: 'return x  # was: return y' }]],
    ['no change', false, [{ ...line('return x'), replacement: 'return x' }]],
    ['a broken module-level function', false, [{ ...line('return 1'), replacement: 'return 1 +' }]],
    ['two edits that together are fine', true, [{ ...line('return x'), replacement: 'return -x' }, { ...line('return 1'), replacement: 'return 2' }]],
    ['two edits, one broken', false, [{ ...line('return x'), replacement: 'return -x' }, { ...line('return 1'), replacement: 'return 2)' }]],
  ])('%s → valid: %s', (_name, valid, edits) => {
    expect(check(edits)).toBe(valid);
  });
});

describe('applyCandidates', () => {
  it('applies non-overlapping edits against the original offsets', () => {
    expect(applyCandidates('a < b and c', [{ start: 2, end: 3, replacement: '<=' }, { start: 6, end: 9, replacement: 'or' }])).toBe('a <= b or c');
  });

  it.each([
    ['overlapping', [{ start: 0, end: 3, replacement: 'x' }, { start: 2, end: 4, replacement: 'y' }]],
    ['out of bounds', [{ start: 5, end: 99, replacement: 'x' }]],
    ['reversed', [{ start: 3, end: 1, replacement: 'x' }]],
  ])('rejects %s edits', (_name, edits) => {
    expect(() => applyCandidates('a < b and c', edits)).toThrow(/out of bounds or overlaps/);
  });
});

describe('pickCandidates', () => {
  it('is reproducible: same seed, same picks', () => {
    const a = pickCandidates(inventory, seededRng(42), { count: 3 });
    const b = pickCandidates(inventory, seededRng(42), { count: 3 });
    expect(a).toHaveLength(3);
    expect(b).toEqual(a);
  });

  it('varies with the seed', () => {
    const picks = new Set([1, 2, 3, 4, 5, 6].map((seed) => JSON.stringify(pickCandidates(inventory, seededRng(seed), { count: 2 }))));
    expect(picks.size).toBeGreaterThan(3);
  });

  it('picks mutations that apply together: disjoint lines, valid as a whole', () => {
    for (const seed of [7, 8, 9]) {
      const picks = pickCandidates(textStats, seededRng(seed), { count: 4 });
      expect(picks).toHaveLength(4);
      for (let i = 1; i < picks.length; i++) expect(picks[i]!.line).toBeGreaterThan(picks[i - 1]!.endLine);
      expect(cpythonRejects([applyCandidates(textStats, picks)])).toEqual([]);
    }
  });

  it('honours the filters and returns fewer when fewer exist', () => {
    const picks = pickCandidates(inventory, seededRng(1), { count: 50, kinds: ['removal'], withinLines: { start: 83, end: 97 } });
    expect(picks.length).toBeGreaterThan(0);
    expect(picks.length).toBeLessThan(50);
    for (const pick of picks) {
      expect(pick.kind).toBe('removal');
      expect(pick.line).toBeGreaterThanOrEqual(83);
    }
  });

  it('spreads picks over operators rather than over sites', () => {
    const operators = new Set<string>();
    for (let seed = 0; seed < 20; seed++) operators.add(pickCandidates(textStats, seededRng(seed), { count: 1 })[0]!.operator);
    expect(operators.size).toBeGreaterThan(8);
  });

  it.each([0, -1, 1.5])('rejects count %s', (count) => {
    expect(() => pickCandidates(inventory, seededRng(1), { count })).toThrow(/positive integer count/);
  });
});
