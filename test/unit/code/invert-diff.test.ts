import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiffParseError } from '../../../src/code/diff-parse-error.js';
import { invertHunk, invertUnifiedDiff } from '../../../src/code/invert-diff.js';
import { GIT_SCENARIOS } from './git-scenarios.js';
import { TempGitRepo } from './temp-git-repo.js';

let repo: TempGitRepo | undefined;
afterEach(() => repo?.dispose());

describe('invertUnifiedDiff with real git', () => {
  it.each(GIT_SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s: apply d then invert(d) restores the tree', (_name, scenario) => {
    repo = TempGitRepo.create(scenario.initial);
    const original = repo.tree();
    scenario.edit(repo);
    const diff = repo.diff();
    const edited = repo.tree();
    expect(edited).not.toBe(original);

    repo.reset();
    repo.apply(diff);
    expect(repo.tree()).toBe(edited);
    const inverse = invertUnifiedDiff(diff);
    repo.apply(inverse);
    expect(repo.tree()).toBe(original);
    // And forward again: the inverse of the inverse is the diff itself.
    repo.apply(invertUnifiedDiff(inverse));
    expect(repo.tree()).toBe(edited);
  });

  it('inverts a plain `diff -ruN` of two directories into a diff git applies', () => {
    const oldFiles = { 'a.py': 'one\ntwo\n', 'gone.py': 'g\n' };
    const newFiles = { 'a.py': 'one\n2\n', 'new.py': 'n\n' };
    const diff = plainDiff(oldFiles, newFiles);
    expect(diff).toMatch(/^--- old\/a\.py\t/m);
    repo = TempGitRepo.create(newFiles);
    repo.apply(invertUnifiedDiff(diff));
    const expected = TempGitRepo.create(oldFiles);
    try {
      expect(repo.tree()).toBe(expected.tree());
    } finally {
      expected.dispose();
    }
  });

  it('refuses to invert "Binary files differ" (no data to restore)', () => {
    repo = TempGitRepo.create({ 'x.bin': Buffer.from([0, 1]) });
    repo.write('x.bin', Buffer.from([0, 2]));
    repo.git('add', '-A');
    const diff = repo.git('diff', '--cached');
    expect(diff).toContain('Binary files a/x.bin and b/x.bin differ');
    expect(() => invertUnifiedDiff(diff)).toThrow(/cannot invert the binary change of x\.bin/);
  });

  it('refuses to invert a copy', () => {
    repo = TempGitRepo.create({ 'orig.py': 'x\n'.repeat(20) });
    repo.write('copy.py', 'x\n'.repeat(20));
    repo.git('add', '-A');
    const diff = repo.git('diff', '--cached', '-C', '--find-copies-harder');
    expect(diff).toContain('copy from orig.py');
    expect(() => invertUnifiedDiff(diff)).toThrow(DiffParseError);
  });
});

/** `diff -ruN old new` run in the parent of both, so headers read `old/x` and `new/x` (p1 strips them). */
function plainDiff(oldFiles: Record<string, string>, newFiles: Record<string, string>): string {
  const parent = mkdtempSync(join(tmpdir(), 'ssr-plain-'));
  try {
    for (const [side, files] of [['old', oldFiles], ['new', newFiles]] as const) {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(join(parent, side), { recursive: true });
        writeFileSync(join(parent, side, path), content);
      }
    }
    const result = spawnSync('diff', ['-ruN', 'old', 'new'], { cwd: parent, encoding: 'utf8' });
    expect(result.status).toBe(1);
    return result.stdout;
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

describe('invertHunk', () => {
  it.each([
    {
      name: 'swaps signs and ranges, removals first',
      hunk: { oldStart: 3, oldLines: 3, newStart: 3, newLines: 3, lines: [' a', '-b', '+B', ' c'], heading: ' def f():' },
      expected: { oldStart: 3, oldLines: 3, newStart: 3, newLines: 3, lines: [' a', '-B', '+b', ' c'], heading: ' def f():' },
    },
    {
      name: 'keeps a no-newline marker with its line',
      hunk: { oldStart: 1, oldLines: 1, newStart: 1, newLines: 2, lines: ['-x', '\\ No newline at end of file', '+x', '+y'], heading: '' },
      expected: { oldStart: 1, oldLines: 2, newStart: 1, newLines: 1, lines: ['-x', '-y', '+x', '\\ No newline at end of file'], heading: '' },
    },
    {
      name: 'pure insertion becomes pure deletion',
      hunk: { oldStart: 5, oldLines: 0, newStart: 5, newLines: 2, lines: ['+p', '+q'], heading: '' },
      expected: { oldStart: 5, oldLines: 2, newStart: 5, newLines: 0, lines: ['-p', '-q'], heading: '' },
    },
  ])('$name', ({ hunk, expected }) => {
    expect(invertHunk(hunk)).toEqual(expected);
  });

  it('emits empty-side ranges the unified way (start of an empty side is the line before)', () => {
    const diff = 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -4,2 +3,0 @@\n-x\n-y\n';
    expect(invertUnifiedDiff(diff)).toContain('@@ -3,0 +4,2 @@\n+x\n+y\n');
  });

  it('inverts an empty diff to an empty diff', () => {
    expect(invertUnifiedDiff('')).toBe('');
  });
});
