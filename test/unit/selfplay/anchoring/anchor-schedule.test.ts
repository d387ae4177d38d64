import { describe, expect, it } from 'vitest';
import { anchorSchedule, anchorsInStep, type StepSlot } from '../../../../src/selfplay/anchoring/anchor-schedule.js';
import type { AnchorBug } from '../../../../src/selfplay/anchoring/anchor-bug.js';
import { planStep } from '../../../../src/selfplay/stages/01-prepare.js';
import { REAL_FIX_DIFF_CHARS } from '../../../../src/selfplay/anchoring/real-fixes.js';
import { makeArtifact } from '../../artifact/artifact-factory.js';

const slots = (repos: Record<string, number>): StepSlot[] => Object.entries(repos).flatMap(([repo, n]) => Array.from({ length: n }, (_, index) => ({ repo, index })));

function anchorBug(id: string, repo = 'pyrange', subject?: string): AnchorBug {
  return { instanceId: `${repo}__${id}`, repo: { id: repo, commit: 'c'.repeat(40) } as AnchorBug['repo'], kind: 'mined', artifact: makeArtifact(), ...(subject ? { subject } : {}) };
}

describe('anchorsInStep', () => {
  it.each([
    // ratio, slots per step, anchors of steps 1..8
    [0.25, 4, [1, 1, 1, 1, 1, 1, 1, 1]],
    [0.25, 2, [1, 0, 1, 0, 1, 0, 1, 0]],
    [0.1, 3, [0, 1, 0, 0, 1, 0, 0, 0]],
    [0.5, 3, [2, 1, 2, 1, 2, 1, 2, 1]],
    [1, 3, [3, 3, 3, 3, 3, 3, 3, 3]],
  ])('ratio %s of %i slots: per step %j, the running total within ½ of ratio × slots × steps', (ratio, n, expected) => {
    const perStep = expected.map((_, i) => anchorsInStep(ratio, n, i + 1));
    expect(perStep).toEqual(expected);
    let total = 0;
    for (const [i, count] of perStep.entries()) {
      total += count;
      expect(Math.abs(total - ratio * n * (i + 1))).toBeLessThanOrEqual(0.5 + 1e-9);
    }
  });
});

describe('anchorSchedule', () => {
  const input = { seed: 3, ratio: 0.25, slots: slots({ pyrange: 4, pytext: 4 }), anchorsPerRepo: new Map([['pyrange', 3], ['pytext', 2]]) };

  it('is a pure function of seed and step: the same slots and bugs when planned again (a resumed run)', () => {
    const first = Array.from({ length: 6 }, (_, i) => anchorSchedule(input, i + 1));
    expect(Array.from({ length: 6 }, (_, i) => anchorSchedule({ ...input, anchorsPerRepo: new Map(input.anchorsPerRepo) }, i + 1))).toEqual(first);
    expect(first.every((step) => step.length === 2)).toBe(true);
    const other = Array.from({ length: 6 }, (_, i) => anchorSchedule({ ...input, seed: 4 }, i + 1));
    expect(other).not.toEqual(first);
  });

  it("takes each repo's anchor bugs in turn across steps: every one before any repeats", () => {
    const taken = Array.from({ length: 12 }, (_, i) => anchorSchedule(input, i + 1)).flat();
    for (const [repo, count] of input.anchorsPerRepo) {
      const bugs = taken.filter((slot) => slot.repo === repo).map((slot) => slot.bug);
      expect(bugs.length).toBeGreaterThan(count);
      expect(bugs).toEqual(bugs.map((_, i) => i % count));
    }
  });

  it('gives anchors only to slots of repos with anchor bugs, at most all of them', () => {
    const onlyOne = { ...input, ratio: 1, anchorsPerRepo: new Map([['pytext', 2]]) };
    const step = anchorSchedule(onlyOne, 1);
    expect(step.map((slot) => slot.repo)).toEqual(['pytext', 'pytext', 'pytext', 'pytext']);
    expect(step.map((slot) => slot.bug)).toEqual([0, 1, 0, 1]);
  });
});

describe('planStep with anchoring', () => {
  const settings = { episodesPerStep: 4, seed: 5, strategy: 'mixed' as const };
  const bugs = [anchorBug('b1', 'pyrange', 'Fix overlaps()'), anchorBug('b2')];
  const anchors = { bugs: new Map([['pyrange', bugs]]), ratio: 0.5 };

  it('replaces the scheduled slots by anchor episodes (strategy anchor, ids of their own) and keeps the others as planned without anchoring', () => {
    const plain = planStep({ step: 1, repos: ['pyrange'], settings });
    const plan = planStep({ step: 1, repos: ['pyrange'], settings, anchors });
    const anchored = plan.filter((p) => p.anchor);
    expect(anchored).toHaveLength(2);
    expect(anchored.every((p) => p.strategy === 'anchor' && p.corpusBug === null)).toBe(true);
    expect(new Set(anchored.map((p) => p.anchor!.instanceId))).toEqual(new Set(bugs.map((b) => b.instanceId)));
    expect(anchored.every((p) => !plain.some((q) => q.id === p.id))).toBe(true);
    const kept = plan.filter((p) => !p.anchor).map(({ realFixes: _r, ...p }) => p);
    expect(kept).toEqual(plain.filter((p) => kept.some((q) => q.index === p.index)));
    expect(planStep({ step: 1, repos: ['pyrange'], settings, anchors })).toEqual(plan);
  });

  it("shows the history Injector the repo's real fixes (test change and code fix, bounded), and no other strategy", () => {
    const long = anchorBug('b3');
    long.artifact = makeArtifact({ bugInject: `diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-${'x'.repeat(5000)}\n+y\n` });
    const plan = planStep({ step: 1, repos: ['pyrange'], settings: { ...settings, episodesPerStep: 24 }, anchors: { bugs: new Map([['pyrange', [...bugs, long]]]), ratio: 0.1 } });
    const history = plan.filter((p) => p.strategy === 'history');
    expect(history.length).toBeGreaterThan(0);
    expect(plan.filter((p) => p.strategy !== 'history').every((p) => p.realFixes === undefined)).toBe(true);
    for (const p of history) {
      expect(p.realFixes).toContain('## Examples of real fixes in this repository');
      // The fix is the bug reversed: the code change goes from `x - 1` back to `x + 1`.
      expect(p.realFixes).toMatch(/-return x - 1\n\+return x \+ 1/);
      expect(p.realFixes!.length).toBeLessThan(3 * (2 * REAL_FIX_DIFF_CHARS + 400) + 400);
    }
    expect(history.some((p) => p.realFixes!.includes('### Real fix 1: Fix overlaps()') || p.realFixes!.includes(': Fix overlaps()'))).toBe(true);
    expect(history.some((p) => p.realFixes!.includes(`(cut at ${REAL_FIX_DIFF_CHARS} characters)`))).toBe(true);
  });
});
