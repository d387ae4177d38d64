import { describe, expect, it } from 'vitest';
import { bugRegions } from '../../../src/evaluation/held-out/bug-regions.js';
import { evaluationDue, evaluationSteps } from '../../../src/evaluation/held-out/eval-schedule.js';
import { describePairs, overlapPairs, sharedCommits, type ComparedBug } from '../../../src/evaluation/held-out/train-eval-overlap.js';

const C1 = '1'.repeat(40);
const C2 = '2'.repeat(40);
/** A bug_inject.diff of lib/a.py: lines 10–11 rewritten (three lines of context either side). */
const REWRITE_10 = [
  'diff --git a/lib/a.py b/lib/a.py', '--- a/lib/a.py', '+++ b/lib/a.py', '@@ -7,8 +7,8 @@',
  ' c7', ' c8', ' c9', '-old10', '-old11', '+new10', '+new11', ' c12', ' c13', ' c14', '',
].join('\n');
/** A line inserted before line 20 of lib/a.py, and line 3 of lib/b.py removed. */
const INSERT_20 = [
  'diff --git a/lib/a.py b/lib/a.py', '--- a/lib/a.py', '+++ b/lib/a.py', '@@ -17,6 +17,7 @@',
  ' c17', ' c18', ' c19', '+inserted', ' c20', ' c21', ' c22',
  'diff --git a/lib/b.py b/lib/b.py', '--- a/lib/b.py', '+++ b/lib/b.py', '@@ -2,3 +2,2 @@', ' b2', '-b3', ' b4', '',
].join('\n');
/** lib/a.py line 13 removed: its context (10–12) overlaps REWRITE_10's hunk, its changed line does not. */
const REMOVE_13 = ['diff --git a/lib/a.py b/lib/a.py', '--- a/lib/a.py', '+++ b/lib/a.py', '@@ -10,7 +10,6 @@', ' c10', ' c11', ' c12', '-c13', ' c14', ' c15', ' c16', ''].join('\n');
/** lib/a.py line 11 removed. */
const REMOVE_11 = ['diff --git a/lib/a.py b/lib/a.py', '--- a/lib/a.py', '+++ b/lib/a.py', '@@ -8,7 +8,6 @@', ' c8', ' c9', ' c10', '-c11', ' c12', ' c13', ' c14', ''].join('\n');

const bug = (id: string, bugInject: string, over: Partial<ComparedBug> = {}): ComparedBug => ({ id, repo: 'pylib', commit: C1, bugInject, ...over });

describe('bugRegions: the lines of O a bug patch changes', () => {
  it('removed and rewritten lines, an insertion as the two lines it sits between; context is not part of it', () => {
    expect(bugRegions(REWRITE_10)).toEqual(new Map([['lib/a.py', [[10, 11]]]]));
    expect(bugRegions(INSERT_20)).toEqual(new Map([['lib/a.py', [[19, 20]]], ['lib/b.py', [[3, 3]]]]));
  });
});

describe('overlapPairs: train/eval hygiene', () => {
  it('pairs bugs of the same repo, commit and changed lines, and nothing else', () => {
    const held = [bug('held-11', REMOVE_11), bug('held-13', REMOVE_13), bug('held-11-other-commit', REMOVE_11, { commit: C2 }), bug('held-11-other-repo', REMOVE_11, { repo: 'other' })];
    const pairs = overlapPairs([bug('train-10', REWRITE_10), bug('train-20', INSERT_20)], held);
    expect(pairs).toEqual([{ trainBug: 'train-10', instanceId: 'held-11', repo: 'pylib', commit: C1, file: 'lib/a.py', lines: [11, 11] }]);
    expect(describePairs(pairs)).toBe(`  train-10 ↔ held-11 (pylib@${C1.slice(0, 12)} lib/a.py:11-11)`);
  });

  it('a patch that does not parse is left out, never a crash', () => {
    expect(overlapPairs([bug('train', 'not a diff\n@@ broken')], [bug('held', REMOVE_11)])).toEqual([]);
  });

  it('names held-out instances at a repo and commit the run injects into', () => {
    const held = [bug('same', REMOVE_11), bug('older', REMOVE_11, { commit: C2 })];
    expect(sharedCommits([{ id: 'pylib', commit: C1 }], held).map((b) => b.id)).toEqual(['same']);
  });
});

describe('evaluationDue: every n-th step and the last', () => {
  it('--eval-every 2 over 5 steps evaluates after steps 2, 4 and 5; without it, after the last only', () => {
    expect(evaluationSteps(2, 5)).toEqual([2, 4, 5]);
    expect(evaluationSteps(undefined, 5)).toEqual([5]);
    expect(evaluationSteps(1, 3)).toEqual([1, 2, 3]);
    // A resumed run given more steps: the old last step is not due again unless it is an n-th.
    expect(evaluationDue(5, 2, 8)).toBe(false);
    expect(evaluationDue(6, 2, 8)).toBe(true);
  });
});
