import { describe, expect, it } from 'vitest';
import { parseHistoryLog } from '../../../src/mining/history-log.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const D = 'd'.repeat(40);

describe('parseHistoryLog', () => {
  it('reads sha, parents, subject and name-status lines of each commit, in order', () => {
    // What git log --name-status --format=%x1e%H %P%x1f%s prints: a merge has no file lines, a root lists its files.
    const out = [
      `\x1e${D} ${C} ${B}\x1fMerge branch 'side'`,
      `\x1e${C} ${A}\x1fFix parse() for "a\tb" & friends: 100% \u00e9`,
      '',
      'M\tlib/a.py',
      'A\ttests/test a.py',
      'D\ttests/test_old.py',
      `\x1e${A}\x1f`,
      '',
      'A\tREADME.md',
      '',
    ].join('\n');
    expect(parseHistoryLog(out)).toEqual([
      { sha: D, parents: [C, B], subject: "Merge branch 'side'", changed: [] },
      {
        sha: C, parents: [A], subject: 'Fix parse() for "a\tb" & friends: 100% \u00e9',
        changed: [{ status: 'M', path: 'lib/a.py' }, { status: 'A', path: 'tests/test a.py' }, { status: 'D', path: 'tests/test_old.py' }],
      },
      { sha: A, parents: [], subject: '', changed: [{ status: 'A', path: 'README.md' }] },
    ]);
  });

  it('an empty window is no commit', () => {
    expect(parseHistoryLog('')).toEqual([]);
    expect(parseHistoryLog('\n')).toEqual([]);
  });
});
