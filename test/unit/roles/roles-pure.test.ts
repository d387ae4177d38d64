import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../../src/code/unified-diff.js';
import { artifactFromSubmission } from '../../../src/roles/artifact-from-submission.js';
import { originalPassingTests } from '../../../src/roles/grade-solution.js';
import { priorCodeChanges } from '../../../src/roles/grading/prior-code-changes.js';
import { pickStrategy, type InjectorStrategy, type StrategyChoice } from '../../../src/roles/injector-strategy.js';
import type { InjectorSubmission } from '../../../src/tools/submission.js';
import { seededRng } from '../../../src/util/seeded-rng.js';

const section = (path: string, from = 'a', to = 'b'): string =>
  `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-${from}\n+${to}\n`;
const added = (path: string): string => `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+x\n`;

describe('priorCodeChanges: what of a failed patch may enter a higher-order bug', () => {
  const tests = ['tests/test_money.py', 'tests/test_ledger.py'];
  it.each<[string, string, string[]]>([
    ['a code change alone: kept', section('pyledger/money.py'), ['pyledger/money.py']],
    ['oracle and other test files go', section('pyledger/money.py') + section('tests/test_money.py') + section('tests/test_reports.py'), ['pyledger/money.py']],
    ['runner config goes: a pytest.ini that deselects would make every order-2 attempt +1', added('pytest.ini') + section('pyledger/ledger.py'), ['pyledger/ledger.py']],
    ['start-up hooks and conftest.py go', added('sitecustomize.py') + added('conftest.py') + section('pyledger/ledger.py'), ['pyledger/ledger.py']],
  ])('%s', (_label, patch, kept) => {
    const result = priorCodeChanges(patch, tests);
    expect(result.status).toBe('ok');
    if (result.status === 'ok') expect(parseUnifiedDiff(result.patch).files.map((f) => f.newPath ?? f.oldPath)).toEqual(kept);
  });

  it.each([
    ['only test and config sections', section('tests/test_money.py') + added('pytest.ini'), /^no-code-change: /],
    ['not a diff', 'this is not a diff\n', /^patch-malformed: /],
    ['empty', '', /^patch-empty: /],
  ])('nothing when %s, saying why', (_label, patch, reason) => {
    const result = priorCodeChanges(patch, tests);
    expect(result).toMatchObject({ status: 'none' });
    if (result.status === 'none') expect(result.reason).toMatch(reason);
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
