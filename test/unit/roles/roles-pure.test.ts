import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../../src/code/unified-diff.js';
import { artifactFromSubmission } from '../../../src/roles/artifact-from-submission.js';
import { dropTestFileSections } from '../../../src/roles/drop-test-sections.js';
import { originalPassingTests } from '../../../src/roles/grade-solution.js';
import { pickStrategy, type InjectorStrategy, type StrategyChoice } from '../../../src/roles/injector-strategy.js';
import type { InjectorSubmission } from '../../../src/tools/submission.js';
import { seededRng } from '../../../src/util/seeded-rng.js';

const section = (path: string, from = 'a', to = 'b'): string =>
  `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-${from}\n+${to}\n`;
const added = (path: string): string => `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+x\n`;

describe('dropTestFileSections', () => {
  const tests = ['tests/test_money.py', 'tests/test_ledger.py'];
  it.each<[string, string, string[], string[]]>([
    ['no test section: the patch byte for byte', section('pyledger/money.py'), [], ['pyledger/money.py']],
    ['a listed test file', section('pyledger/money.py') + section('tests/test_money.py'), ['tests/test_money.py'], ['pyledger/money.py']],
    ['every section', section('tests/test_money.py') + section('tests/test_ledger.py'), ['tests/test_money.py', 'tests/test_ledger.py'], []],
    ['an unlisted test file is dropped too (a Solver fixes code, not tests)', section('tests/test_reports.py') + section('tests/test_ledger.py') + section('pyledger/ledger.py'), ['tests/test_reports.py', 'tests/test_ledger.py'], ['pyledger/ledger.py']],
    ['a new conftest.py is dropped (a pytest hook could rewrite every outcome)', added('tests/conftest.py') + section('pyledger/ledger.py'), ['tests/conftest.py'], ['pyledger/ledger.py']],
    ['a new file at a listed path', added('tests/test_money.py') + section('pyledger/ledger.py'), ['tests/test_money.py'], ['pyledger/ledger.py']],
    ['a rename away from a listed file', 'diff --git a/tests/test_money.py b/x.py\nsimilarity index 100%\nrename from tests/test_money.py\nrename to x.py\n', ['x.py'], []],
  ])('%s', (_label, patch, dropped, kept) => {
    const result = dropTestFileSections(patch, tests);
    expect(result.dropped).toEqual(dropped);
    expect(parseUnifiedDiff(result.patch).files.map((f) => f.newPath ?? f.oldPath)).toEqual(kept);
    if (dropped.length === 0) expect(result.patch).toBe(patch);
  });

  it('returns a patch that does not parse unchanged, so applying it fails on its own', () => {
    expect(dropTestFileSections('this is not a diff\n', tests)).toEqual({ patch: 'this is not a diff\n', dropped: [] });
  });

  it('matches listed paths written with ./', () => {
    expect(dropTestFileSections(section('tests/test_money.py'), ['./tests/test_money.py']).dropped).toEqual(['tests/test_money.py']);
  });
});

describe('pickStrategy', () => {
  it.each<[StrategyChoice, InjectorStrategy]>([
    ['removal', 'removal'],
    ['history', 'history'],
    ['direct', 'direct'],
  ])('%s is always %s', (choice, expected) => {
    expect(pickStrategy(choice, seededRng(1))).toBe(expected);
  });

  it('mixed draws removal or history, the same for the same seed, both over many seeds', () => {
    const draws = Array.from({ length: 200 }, (_, seed) => pickStrategy('mixed', seededRng(seed)));
    expect(new Set(draws)).toEqual(new Set(['removal', 'history']));
    expect(Array.from({ length: 200 }, (_, seed) => pickStrategy('mixed', seededRng(seed)))).toEqual(draws);
    const removals = draws.filter((d) => d === 'removal').length;
    expect(removals).toBeGreaterThan(70);
    expect(removals).toBeLessThan(130);
  });
});

describe('artifactFromSubmission', () => {
  const submission = (testFiles: string): InjectorSubmission => ({
    type: 'injector', bugInject: 'B', testWeaken: 'W', testFiles, testScript: 'S', testParser: 'P',
  });
  it('parses test_files.txt (comments, blanks and ./ dropped)', () => {
    expect(artifactFromSubmission(submission('# oracle\n./tests/test_a.py\n\ntests/test_b.py\n'))).toEqual({
      artifact: { bugInject: 'B', testWeaken: 'W', testFiles: ['tests/test_a.py', 'tests/test_b.py'], testScript: 'S', testParser: 'P' },
    });
  });
  it.each([
    ['/repo/tests/test_a.py\n', /line 1: absolute path/],
    ['tests/test_a.py\ntests/test_a.py\n', /line 2: duplicate "tests\/test_a.py"/],
    ['../x.py\n', /line 1: ".." segment/],
  ])('reports an unusable list %j as a problem, not an error', (list, problem) => {
    const result = artifactFromSubmission(submission(list));
    expect('problem' in result && result.problem).toMatch(problem);
  });
});

describe('originalPassingTests', () => {
  it('is FAIL_TO_PASS ∪ PASS_TO_PASS, sorted and unique', () => {
    expect(originalPassingTests({ failToPass: ['t::b', 't::a'], passToPass: ['t::c', 't::a'] })).toEqual(['t::a', 't::b', 't::c']);
  });
});
