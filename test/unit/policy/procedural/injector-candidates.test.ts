import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasSyntaxErrors, parsePython } from '../../../../src/code/python/parse-python.js';
import {
  HISTORY_SUBJECT,
  historyCandidates,
  keepNonDefiningHunks,
  parseHistoryLog,
} from '../../../../src/policy/procedural/injector/history-candidates.js';
import { mutationCandidates } from '../../../../src/policy/procedural/injector/mutation-candidates.js';
import { applyCandidate, listCandidates } from '../../../../src/mutation/mutate.js';
import { applyEdit } from '../../../../src/tools/line-match.js';
import { seededRng } from '../../../../src/util/seeded-rng.js';

const PYTHON = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'python');
const SOURCES = new Map([
  ['inventory.py', readFileSync(join(PYTHON, 'inventory.py'), 'utf8')],
  ['text_stats.py', readFileSync(join(PYTHON, 'text_stats.py'), 'utf8')],
]);

describe('mutationCandidates', () => {
  it.each(['removal', 'operator'] as const)('%s: every candidate is an edit the edit tool accepts, leaving valid Python', (kind) => {
    const candidates = mutationCandidates(SOURCES, kind, null, seededRng(3));
    expect(candidates.length).toBeGreaterThan(5);
    for (const candidate of candidates.slice(0, 40)) {
      expect(candidate.record.kind).toBe(kind);
      expect(candidate.apply.type).toBe('edit');
      if (candidate.apply.type !== 'edit') continue;
      const outcome = applyEdit(SOURCES.get(candidate.file)!, candidate.apply.edit.search, candidate.apply.edit.replace);
      expect(outcome.status).toBe('edited');
      if (outcome.status === 'edited') expect(hasSyntaxErrors(parsePython(outcome.text))).toBe(false);
    }
  });

  it('is reproducible per seed, differs across seeds and mixes operators', () => {
    const names = (seed: number) => mutationCandidates(SOURCES, 'operator', null, seededRng(seed)).map((c) => `${c.file}:${c.record.line}:${c.record.operator}`);
    expect(names(5)).toEqual(names(5));
    expect(names(5)).not.toEqual(names(6));
    expect(new Set(names(5).slice(0, 10).map((n) => n.split(':')[2])).size).toBeGreaterThan(3);
  });

  it('keeps to executed lines when coverage is known, and to covered files', () => {
    const coverage = new Map([['inventory.py', new Set([1, 2, 3])]]);
    const candidates = mutationCandidates(SOURCES, 'operator', coverage, seededRng(1));
    expect(candidates.every((c) => c.file === 'inventory.py' && [1, 2, 3].includes(c.record.line!))).toBe(true);
  });
});

describe('mutationCandidates on JavaScript', () => {
  const cart = readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'javascript', 'cart.mjs'), 'utf8');

  it('checks a proposal only when asked, and passes exactly the mutants listCandidates keeps', () => {
    const candidates = mutationCandidates(new Map([['cart.mjs', cart]]), 'operator', null, seededRng(2));
    expect(candidates.every((c) => typeof c.check === 'function')).toBe(true);
    const text = (c: (typeof candidates)[number]) => (c.apply.type === 'edit' ? applyEdit(cart, c.apply.edit.search, c.apply.edit.replace) : null);
    const valid = candidates.filter((c) => c.check!()).map(text).map((outcome) => (outcome?.status === 'edited' ? outcome.text : ''));
    const listed = listCandidates(cart, { language: 'javascript', kinds: ['operator'] }).map((c) => applyCandidate(cart, c));
    expect(valid.sort()).toEqual(listed.sort());
    // A text already passed is not passed again (listCandidates' one candidate per text).
    expect(candidates[0]!.check!()).toBe(false);
  });
});

const LOG = [
  '@@commit a0fcf854bb26b37599c51843decfcb341a864f73 Fix add_months() returning the wrong year for December',
  '',
  'M\tpyledger/__init__.py',
  'M\tpyledger/periods.py',
  'M\ttests/test_periods.py',
  '@@commit 7d14b45000000000000000000000000000000000 Add interest calculations',
  'A\tpyledger/interest.py',
  '@@commit 1780823000000000000000000000000000000000 Handle empty CSV input',
  'M\tpyledger/csvio.py',
  'R100\tpyledger/old.py\tpyledger/new.py',
].join('\n');

describe('history candidates', () => {
  it('reads commits and the files they modified', () => {
    expect(parseHistoryLog(LOG)).toEqual([
      { sha: 'a0fcf854bb26b37599c51843decfcb341a864f73', subject: 'Fix add_months() returning the wrong year for December', modified: ['pyledger/__init__.py', 'pyledger/periods.py', 'tests/test_periods.py'] },
      { sha: '7d14b45000000000000000000000000000000000', subject: 'Add interest calculations', modified: [] },
      { sha: '1780823000000000000000000000000000000000', subject: 'Handle empty CSV input', modified: ['pyledger/csvio.py'] },
    ]);
  });

  it.each([
    ['Fix rounding of negative amounts', true], ['Handle empty CSV input', true], ['Optimise balance lookups', true],
    ['Optimize the index', true], ['Regression test for #12', true], ['Edge cases of parse()', true], ['Add CSV import', false], ['Initial import', false],
  ])('%s is a commit worth reverting: %s', (subject, expected) => {
    expect(HISTORY_SUBJECT.test(subject)).toBe(expected);
  });

  it('offers one revert per fix commit and code file, never a test file, in a seeded order', () => {
    const code = new Set(['pyledger/__init__.py', 'pyledger/periods.py', 'pyledger/csvio.py']);
    const candidates = historyCandidates(parseHistoryLog(LOG), code, seededRng(1));
    expect(candidates.map((c) => c.file).sort()).toEqual(['pyledger/__init__.py', 'pyledger/csvio.py', 'pyledger/periods.py']);
    for (const c of candidates) {
      expect(c.record).toMatchObject({ operator: 'revert-commit', kind: 'history' });
      expect(c.apply.type === 'bash' && c.apply.command).toContain(`git apply -R`);
    }
    expect(historyCandidates(parseHistoryLog(LOG), code, seededRng(1))).toEqual(candidates);
  });

  it('offers the other commits that modified code after the fixes, so a repo that never says "fix" still has changes to undo', () => {
    const log = [
      '@@commit ' + 'b'.repeat(40) + ' Add CSV import', 'M\tpkg/csvio.py', 'M\ttests/test_csvio.py',
      '@@commit ' + 'a'.repeat(40) + ' Fix rounding', 'M\tpkg/money.py',
    ].join('\n');
    const candidates = historyCandidates(parseHistoryLog(log), new Set(['pkg/csvio.py', 'pkg/money.py']), seededRng(3));
    expect(candidates.map((c) => c.file)).toEqual(['pkg/money.py', 'pkg/csvio.py']);
    expect(historyCandidates(parseHistoryLog(log.split('@@commit ' + 'a')[0]!), new Set(['pkg/csvio.py']), seededRng(3)).map((c) => c.file)).toEqual(['pkg/csvio.py']);
  });

  it('visits the files of a multi-file fix in a seeded order, so every file leads for some seed', () => {
    const log = ['@@commit ' + 'a'.repeat(40) + ' Handle empty results everywhere', 'M\tpkg/a.py', 'M\tpkg/b.py', 'M\tpkg/c.py', 'M\ttests/test_a.py'].join('\n');
    const code = new Set(['pkg/a.py', 'pkg/b.py', 'pkg/c.py']);
    const first = new Set(Array.from({ length: 24 }, (_, seed) => historyCandidates(parseHistoryLog(log), code, seededRng(seed))[0]!.file));
    expect([...first].sort()).toEqual(['pkg/a.py', 'pkg/b.py', 'pkg/c.py']);
  });

  it('keeps only the hunks that remove no definition (a compatibility fix)', () => {
    const patch = [
      'diff --git a/m.py b/m.py', '--- a/m.py', '+++ b/m.py',
      '@@ -1,3 +1,6 @@', ' import os', '+', '+def helper(x):', '+    return x', ' ',
      '@@ -10,3 +13,3 @@', ' def f(x):', '-    return x + 1', '+    return helper(x) + 1',
      '',
    ].join('\n');
    const kept = keepNonDefiningHunks(patch)!;
    expect(kept).toContain('@@ -10,3 +13,3 @@');
    expect(kept).not.toContain('def helper');
    expect(kept.startsWith('diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -10,3')).toBe(true);
    expect(keepNonDefiningHunks(patch.split('@@ -10')[0]!)).toBeNull();
  });
});
