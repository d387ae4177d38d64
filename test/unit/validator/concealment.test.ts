import { describe, expect, it } from 'vitest';
import { concealmentCheck } from '../../../consistency-checks/concealment.js';
import type { StatusMap } from '../../../src/harness/test-report.js';
import { contextWithRuns } from './check-context.js';

const A = (n: number): string => `tests/test_a.py::test_${n}`;
const B = (n: number): string => `tests/test_b.py::test_${n}`;
const ids = [1, 2, 3, 4].flatMap((n) => [A(n), B(n)]);
const ORIGINAL: StatusMap = Object.fromEntries(ids.map((id) => [id, 'passed' as const]));
/** The bug breaks test_a's 1 and 2; everything else still passes. */
const BUGGY: StatusMap = { ...ORIGINAL, [A(1)]: 'failed', [A(2)]: 'failed' };

function without(map: StatusMap, ...gone: string[]): StatusMap {
  return Object.fromEntries(Object.entries(map).filter(([id]) => !gone.some((prefix) => id.startsWith(prefix))));
}

/** A weakening diff that edits tests/test_a.py (its content does not matter to the run-based rules). */
const EDITS_A = 'diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n@@ -1,2 +1,1 @@\n x = 1\n-y = 2\n';
const DELETES_A = 'diff --git a/tests/test_a.py b/tests/test_a.py\ndeleted file mode 100644\n--- a/tests/test_a.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x = 1\n-y = 2\n';

describe('concealment check: hiding is deleting or weakening tests, not stopping them from running', () => {
  it.each([
    ['the weakening deletes both failing tests', BUGGY, without(BUGGY, A(1), A(2)), EDITS_A, 'pass'],
    ['the weakening makes one failing test pass', BUGGY, { ...BUGGY, [A(1)]: 'passed' }, EDITS_A, 'pass'],
    ['the weakening deletes the whole file', BUGGY, without(BUGGY, 'tests/test_a.py'), DELETES_A, 'pass'],
    ['the weakening hides nothing', BUGGY, BUGGY, EDITS_A, 'fail'],
    ['test_a.py stops collecting on W (parser silent)', BUGGY, without(BUGGY, 'tests/test_a.py'), EDITS_A, 'fail'],
    ['test_a.py stops collecting on W (parser reports the file)', BUGGY, { ...without(BUGGY, 'tests/test_a.py'), 'tests/test_a.py': 'failed' }, EDITS_A, 'fail'],
    ['nothing collects on W, empty report', BUGGY, {}, EDITS_A, 'fail'],
    ['nothing collects on W, only the collection error', BUGGY, { 'tests/test_a.py': 'failed' }, EDITS_A, 'fail'],
    ['nothing collected on B, nor on W', without(ORIGINAL, 'tests/test_a.py'), without(ORIGINAL, 'tests/test_a.py'), EDITS_A, 'fail'],
    ['a test that passed on B fails on W', BUGGY, { ...without(BUGGY, A(1), A(2)), [B(1)]: 'failed' }, EDITS_A, 'fail'],
  ] as const)('%s → %s', async (_label, buggy, weakened, testWeaken, expected) => {
    const ctx = contextWithRuns({ artifact: { testWeaken, testFiles: ['tests/test_a.py', 'tests/test_b.py'] }, runs: { original: ORIGINAL, buggy, weakened } });
    const verdict = await concealmentCheck.run(ctx);
    expect(verdict.status, verdict.reason).toBe(expected);
  });

  it('accepts a Vitest weakening that deletes every test of a file whose tests all failed on B (the file then fails: no test suite)', async () => {
    const original: StatusMap = { 'src/a.test.ts > adds': 'passed', 'src/a.test.ts > subtracts': 'passed', 'src/b.test.ts > joins': 'passed' };
    const buggy: StatusMap = { ...original, 'src/a.test.ts > adds': 'failed', 'src/a.test.ts > subtracts': 'failed' };
    const weakened: StatusMap = { 'src/a.test.ts': 'failed', 'src/b.test.ts > joins': 'passed' };
    const testWeaken = EDITS_A.replaceAll('tests/test_a.py', 'src/a.test.ts');
    const ctx = contextWithRuns({ artifact: { testWeaken, testFiles: ['src/a.test.ts', 'src/b.test.ts'] }, runs: { original, buggy, weakened } });
    const verdict = await concealmentCheck.run(ctx);
    expect(verdict.status, verdict.reason).toBe('pass');
    expect(verdict.evidence).toMatchObject({ hidden: 2, failingOnlyOnW: ['src/a.test.ts'] });
  });

  it('names the file that stopped running', async () => {
    const ctx = contextWithRuns({ artifact: { testWeaken: EDITS_A, testFiles: ['tests/test_a.py', 'tests/test_b.py'] }, runs: { original: ORIGINAL, buggy: BUGGY, weakened: without(BUGGY, 'tests/test_a.py') } });
    const verdict = await concealmentCheck.run(ctx);
    expect(verdict.reason).toMatch(/no test of tests\/test_a\.py runs on the weakened repo/);
    expect(verdict.evidence).toMatchObject({ stoppedFiles: ['tests/test_a.py'] });
  });

  it('does not count tests missing on B and on W as hidden', async () => {
    const buggy = without(ORIGINAL, 'tests/test_a.py');
    const ctx = contextWithRuns({ artifact: { testWeaken: EDITS_A, testFiles: ['tests/test_a.py', 'tests/test_b.py'] }, runs: { original: ORIGINAL, buggy, weakened: buggy } });
    const verdict = await concealmentCheck.run(ctx);
    expect(verdict.reason).toMatch(/hides none of the 4 failing test\(s\) \(4 of them never ran/);
  });

  it('holds JS ids to the same rules (a Vitest file that fails to import on W)', async () => {
    const original: StatusMap = { 'src/a.test.ts > adds': 'passed', 'src/a.test.ts > subtracts': 'passed', 'src/b.test.ts > joins': 'passed' };
    const buggy: StatusMap = { ...original, 'src/a.test.ts > adds': 'failed' };
    const weakened: StatusMap = { 'src/b.test.ts > joins': 'passed' };
    const testWeaken = EDITS_A.replaceAll('tests/test_a.py', 'src/a.test.ts');
    const ctx = contextWithRuns({ artifact: { testWeaken, testFiles: ['src/a.test.ts', 'src/b.test.ts'] }, runs: { original, buggy, weakened } });
    const verdict = await concealmentCheck.run(ctx);
    expect(verdict.status).toBe('fail');
    expect(verdict.evidence).toMatchObject({ stoppedFiles: ['src/a.test.ts'] });
  });
});
