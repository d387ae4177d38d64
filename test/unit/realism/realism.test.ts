import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStoredBug } from '../../../src/corpus/write-stored-bug.js';
import type { InstanceOutcome } from '../../../src/evaluation/eval-table.js';
import { changeKey, measureBug, type BugMeasure } from '../../../src/realism/bug-measure.js';
import { formatRealism } from '../../../src/realism/format-realism.js';
import { realismSummary } from '../../../src/realism/realism-summary.js';
import { realismTables, spread } from '../../../src/realism/realism-table.js';
import { makeArtifact } from '../artifact/artifact-factory.js';

// A fix commit's change reversed: two code files, three hunks, 2 + 2 + 1 changed lines.
const twoFiles = `diff --git a/pkg/a.py b/pkg/a.py
--- a/pkg/a.py
+++ b/pkg/a.py
@@ -1,3 +1,3 @@
 x = 1
-y = 2
+y = 3
 z = 3
@@ -10,2 +10,4 @@
 a
+b = 1
+c = 2
 d
diff --git a/pkg/b.py b/pkg/b.py
--- a/pkg/b.py
+++ b/pkg/b.py
@@ -4,3 +4,2 @@
 if x:
-    return y
 pass
`;

describe('measureBug', () => {
  it('measures files, hunks and lines of bug_inject.diff, its shape, and the FAIL_TO_PASS tests with the test files they span', () => {
    const measure = measureBug({
      bugId: 'bug-1', repo: 'pyrange', origin: 'real', kind: 'mined', bugInject: twoFiles,
      failToPass: ['tests/test_a.py::test_one', 'tests/test_a.py::Case::test_two', 'tests/test_b.py::test_three[1]'],
      testFiles: ['tests/test_a.py', 'tests/test_b.py'],
    });
    expect(measure).toEqual({
      bugId: 'bug-1', repo: 'pyrange', origin: 'real', kind: 'mined', shape: ['add-lines', 'remove-lines', 'replace-lines'],
      files: 2, hunks: 3, lines: 5, failingTests: 3, failingTestFiles: 2, change: changeKey(twoFiles),
    });
  });
});

describe('changeKey', () => {
  // The same change made at another line, indented differently, with other context.
  const moved = twoFiles.replace('@@ -1,3 +1,3 @@\n x = 1', '@@ -5,3 +5,3 @@\n x = 0').replace('-    return y', '-  return y').replace(' if x:', ' if z:');
  it.each([
    ['the same change at other lines, with other context and indentation', moved, true],
    ['another added line', twoFiles.replace('+c = 2', '+c = 4'), false],
    ['the same lines in another file', twoFiles.replace(/pkg\/b\.py/g, 'pkg/c.py'), false],
  ])('%s', (_name, other, same) => {
    expect(other).not.toBe(twoFiles);
    expect(changeKey(other) === changeKey(twoFiles)).toBe(same);
  });

  it('is null for a diff that does not parse', () => {
    expect(changeKey('not a diff\n\x00')).toBeNull();
    expect(changeKey(twoFiles)).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('spread', () => {
  it.each([
    [[], { mean: null, median: null, max: null }],
    [[3], { mean: 3, median: 3, max: 3 }],
    [[10, 1, 3, 2], { mean: 4, median: 2.5, max: 10 }],
    [[1, 1, 2], { mean: 1.33, median: 1, max: 2 }],
  ])('%j', (values, expected) => {
    expect(spread(values)).toEqual(expected);
  });
});

const bug = (over: Partial<BugMeasure>): BugMeasure => ({
  bugId: 'b', repo: 'pyrange', origin: 'synthetic', kind: 'negate-condition', shape: ['replace-lines'], files: 1, hunks: 1, lines: 2, failingTests: 1, failingTestFiles: 1, change: null, ...over,
});
const outcome = (over: Partial<InstanceOutcome>): InstanceOutcome => ({ instanceId: 'x', repo: 'pyrange', kind: 'mined', status: 'scored', scored: 2, solved: 0, ...over });

describe('realismTables', () => {
  const bugs = [
    bug({ bugId: 's1', failingTests: 8, lines: 4, change: 'k-revert' }),
    bug({ bugId: 's2', kind: 'remove-loop', shape: ['remove-lines'], failingTests: 2, lines: 6 }),
    // Same change key as r1, but in another repo: not the same bug.
    bug({ bugId: 's3', repo: 'pyledger', failingTests: 40, files: 3, change: 'k-revert' }),
    bug({ bugId: 'r1', origin: 'real', kind: 'mined', shape: ['add-lines', 'replace-lines'], files: 2, hunks: 3, lines: 9, failingTests: 1, change: 'k-revert' }),
    bug({ bugId: 'r2', origin: 'real', kind: 'mined', shape: ['replace-lines'], failingTests: 2, failingTestFiles: 2 }),
  ];
  const synthetic = { policy: 'procedural', outcomes: [outcome({ instanceId: 'pyrange__s1', solved: 2 }), outcome({ instanceId: 'pyrange__s2', solved: 0 }), outcome({ instanceId: 'pyledger__s3', status: 'invalid', scored: 0 })] };
  const real = {
    policy: 'procedural',
    // A bug of another set in the same eval is not counted.
    outcomes: [outcome({ instanceId: 'pyrange__r1', solved: 1 }), outcome({ instanceId: 'pyrange__r2', scored: 2, solved: 0 }), outcome({ instanceId: 'other__zz', solved: 2 })],
  };
  const tables = realismTables(bugs, { synthetic, real });

  it('gives one row per repo, each with both sides, and an all row', () => {
    expect(tables.byRepo.map((row) => [row.repo, row.synthetic.bugs, row.real.bugs])).toEqual([['pyledger', 1, 0], ['pyrange', 2, 2]]);
    expect([tables.all.synthetic.bugs, tables.all.real.bugs]).toEqual([3, 2]);
  });

  it('spreads the sizes and breadth of each side, and counts kinds and diff shapes', () => {
    const pyrange = tables.byRepo[1]!;
    expect(pyrange.synthetic.failingTests).toEqual({ mean: 5, median: 5, max: 8 });
    expect(pyrange.real.hunks).toEqual({ mean: 2, median: 2, max: 3 });
    expect(pyrange.real.failingTestFiles).toEqual({ mean: 1.5, median: 1.5, max: 2 });
    expect(pyrange.synthetic.kinds).toEqual({ 'negate-condition': 1, 'remove-loop': 1 });
    expect(pyrange.real.shapes).toEqual({ 'add-lines': 1, 'replace-lines': 2 });
    expect(tables.all.synthetic.failingTests).toEqual({ mean: 16.67, median: 8, max: 40 });
  });

  it('counts the bugs whose code change is also a bug of the other side in the same repo', () => {
    expect([tables.byRepo[1]!.synthetic.sameChangeAsOther, tables.byRepo[1]!.real.sameChangeAsOther]).toEqual([1, 1]);
    expect(tables.byRepo[0]!.synthetic.sameChangeAsOther).toBe(0);
    expect([tables.all.synthetic.sameChangeAsOther, tables.all.real.sameChangeAsOther]).toEqual([1, 1]);
  });

  it("takes each side's solve rate from its own eval, over that side's bugs only", () => {
    expect(tables.all.synthetic.solver).toEqual({ policy: 'procedural', evaluated: 2, attempts: 4, solved: 2, solveRate: 0.5, passAt1: 0.5 });
    expect(tables.all.real.solver).toEqual({ policy: 'procedural', evaluated: 2, attempts: 4, solved: 1, solveRate: 0.25, passAt1: 0.25 });
    expect(tables.byRepo[0]!.synthetic.solver).toMatchObject({ evaluated: 0, attempts: 0, solveRate: null });
    expect(realismTables(bugs).all.real.solver).toBeNull();
  });

  it('prints a block per repo and one for all, the solve rate as solved/attempts', () => {
    const text = formatRealism(tables);
    expect(text).toMatch(/^pyledger\s+synthetic\s+real \(mined\)$/m);
    expect(text).toMatch(/^all\s+synthetic\s+real \(mined\)$/m);
    expect(text).toMatch(/^ {2}failing tests \(FAIL_TO_PASS\)\s+16\.67 \/ 8 \/ 40\s+1\.5 \/ 1\.5 \/ 2$/m);
    expect(text).toMatch(/^ {2}solve rate\s+2\/4 = 50\.0 % \(procedural, 2 bug\(s\)\)\s+1\/4 = 25\.0 % \(procedural, 2 bug\(s\)\)$/m);
    expect(text).toContain('  real kinds: mined 2');
  });
});

describe('realismSummary (stored sets on disk)', () => {
  let root: string;
  const store = async (set: string, id: string, strategy: string, failToPass: string[]) => {
    const metadata = { id, repo: 'pyrange', commit: 'c0ffee', strategy, order: 1 as const, parentBugId: null, attemptOf: null, episodeId: null, policyVersion: null, buggyTreeHash: id };
    await writeStoredBug(join(root, set, 'bugs', id), makeArtifact({ bugInject: twoFiles }), metadata, { valid: true, failedCheck: null, failToPass, passToPass: [] });
  };
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-realism-'));
    await store('synthetic', 'bug-s', 'removal', ['tests/test_a.py::t1', 'tests/test_a.py::t2']);
    await store('real', 'bug-r', 'mined', ['tests/test_b.py::t3']);
    await mkdir(join(root, 'eval-real'), { recursive: true });
    await writeFile(join(root, 'eval-real', 'eval.json'), JSON.stringify({ policy: { name: 'procedural', version: 0 }, outcomes: [outcome({ instanceId: 'pyrange__bug-r', scored: 1, solved: 1 })] }));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads both sets and the real side\'s eval, with the shared repo', async () => {
    const summary = await realismSummary({ synthetic: join(root, 'synthetic'), real: join(root, 'real'), realEval: join(root, 'eval-real') });
    expect(summary.sharedRepos).toEqual(['pyrange']);
    expect(summary.notes).toEqual([]);
    expect(summary.bugs.map((b) => [b.origin, b.kind, b.failingTests, b.hunks])).toEqual([['synthetic', 'removal', 2, 3], ['real', 'mined', 1, 3]]);
    expect(summary.all.real.solver).toMatchObject({ attempts: 1, solved: 1, solveRate: 1 });
    expect(summary.all.synthetic.solver).toBeNull();
  });

  it.each([
    ['a mined set given as --synthetic', { synthetic: 'real', real: 'real' }, /--synthetic \S+real: bug bug-r is a mined \(real\) bug; give a real set as --real/],
    ['a synthetic set given as --real', { synthetic: 'synthetic', real: 'synthetic' }, /--real \S+synthetic: bug bug-s is a synthetic bug \(strategy removal\); give a synthetic set as --synthetic/],
    ['an eval of another set', { synthetic: 'synthetic', real: 'real', syntheticEval: 'eval-real' }, /--synthetic-eval \S+eval-real: its eval holds none of the set's 1 bug\(s\)/],
    ['a dir that is no eval', { synthetic: 'synthetic', real: 'real', realEval: 'real' }, /--real-eval \S+real: no \S+eval\.json \(give the --out dir of a finished ssr eval\)/],
  ])('refuses %s, naming the flag and the fix', async (_name, flags, message) => {
    const at = Object.fromEntries(Object.entries(flags).map(([key, dir]) => [key, join(root, dir)])) as { synthetic: string; real: string };
    await expect(realismSummary(at)).rejects.toThrow(message);
  });
});
