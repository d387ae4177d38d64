import { afterAll, describe, expect, it } from 'vitest';
import { changeRuns, hunkChangeRuns } from '../../../src/code/change-runs.js';
import { parseUnifiedDiff } from '../../../src/code/unified-diff.js';
import { TempGitRepo } from './temp-git-repo.js';

const numbered = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('');

// One real `git diff` holds every edge case: two hunks, an added, a deleted and a renamed-and-edited
// file, and both sides of a missing final newline.
const repo = TempGitRepo.create({
  'multi.py': numbered(40),
  'gone.py': 'one\ntwo\n',
  'old_name.py': numbered(12),
  'eof.txt': 'x\ny\n',
  'both_eof.txt': 'a\nb',
});
repo.write('multi.py', numbered(40).replace('line 3\n', 'LINE 3\nextra\n').replace('line 30\n', ''));
repo.write('new.py', 'print(1)\nx = 1\n');
repo.remove('gone.py');
repo.move('old_name.py', 'new_name.py');
repo.write('new_name.py', numbered(12).replace('line 6\n', 'line six\n'));
repo.write('eof.txt', 'x\nY');
repo.write('both_eof.txt', 'a\nB');
const diff = parseUnifiedDiff(repo.diff());
afterAll(() => repo.dispose());

const runsOf = (path: string) => {
  const file = diff.files.find((f) => (f.newPath ?? f.oldPath) === path);
  if (!file) throw new Error(`no ${path} in the diff`);
  return changeRuns(file.hunks);
};

describe('changeRuns: the changed-line runs of real git diffs', () => {
  it('places each run of a multi-hunk file on both sides, a rewrite and a pure deletion', () => {
    expect(runsOf('multi.py')).toEqual([
      { oldStart: 3, newStart: 3, removed: ['line 3'], added: ['LINE 3', 'extra'], addsFirst: false },
      { oldStart: 30, newStart: 31, removed: ['line 30'], added: [], addsFirst: false },
    ]);
  });

  it('an added file is one insertion at old line 1; a deleted one, one removal at new line 1', () => {
    expect(runsOf('new.py')).toEqual([{ oldStart: 1, newStart: 1, removed: [], added: ['print(1)', 'x = 1'], addsFirst: true }]);
    expect(runsOf('gone.py')).toEqual([{ oldStart: 1, newStart: 1, removed: ['one', 'two'], added: [], addsFirst: false }]);
  });

  it('numbers a renamed file by its old and new lines', () => {
    expect(runsOf('new_name.py')).toEqual([{ oldStart: 6, newStart: 6, removed: ['line 6'], added: ['line six'], addsFirst: false }]);
  });

  it('keeps a missing final newline with the side it qualifies', () => {
    const [lost] = runsOf('eof.txt');
    expect(lost).toMatchObject({ oldStart: 2, removed: ['y'], added: ['Y'], addedMarker: '\\ No newline at end of file' });
    expect(lost!.removedMarker).toBeUndefined();
    const [both] = runsOf('both_eof.txt');
    expect(both).toMatchObject({ removed: ['b'], added: ['B'], removedMarker: '\\ No newline at end of file', addedMarker: '\\ No newline at end of file' });
  });

  it('an insertion before a removal adds first; context splits runs and a marker after context belongs to none', () => {
    const hunk = { oldStart: 5, oldLines: 4, newStart: 5, newLines: 4, heading: '', lines: ['+new', '-old', ' ctx', '-a', '-b', '+c', ' last', '\\ No newline at end of file'] };
    expect(hunkChangeRuns(hunk)).toEqual([
      { oldStart: 5, newStart: 5, removed: ['old'], added: ['new'], addsFirst: true },
      { oldStart: 7, newStart: 7, removed: ['a', 'b'], added: ['c'], addsFirst: false },
    ]);
  });
});
