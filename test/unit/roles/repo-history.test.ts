import { describe, expect, it } from 'vitest';
import { historyUsable, parseRepoHistory } from '../../../src/roles/repo-history.js';

describe('parseRepoHistory', () => {
  it.each([
    ['one imported commit (files added, none modified)', '@@count 1\n@@commit a1\n\nA\tpkg/core.py\nA\ttests/test_core.py', { commits: 1, revertible: 0 }, false],
    ['later commits touch only tests and docs', '@@count 3\n@@commit c3\n\nM\ttests/test_core.py\n@@commit b2\n\nM\tREADME.md\n@@commit a1\n\nA\tpkg/core.py', { commits: 3, revertible: 0 }, false],
    [
      'a commit modifying code counts once however many files it touched',
      '@@count 4\n@@commit d4\n\nM\tpkg/a.py\nM\tpkg/b.py\n@@commit c3\n\nA\tpkg/new.py\n@@commit b2\n\nM\tpkg/core.py\nM\ttests/test_core.py\n@@commit a1\n\nA\tpkg/core.py',
      { commits: 4, revertible: 2 },
      true,
    ],
  ])('%s', (_name, output, expected, usable) => {
    const history = parseRepoHistory(output);
    expect(history).toEqual(expected);
    expect(historyUsable(history!)).toBe(usable);
  });

  it('refuses output that is not the probe\'s', () => {
    expect(parseRepoHistory('fatal: not a git repository')).toBeNull();
  });
});
