import { describe, expect, it } from 'vitest';
import { applyPatch } from 'diff';
import { formatGitDiff } from '../../../../src/code/format-git-diff.js';
import { parseUnifiedDiff } from '../../../../src/code/unified-diff.js';
import { dropExampleHunks } from '../../../../src/roles/grading/drop-example-hunks.js';

// The Solver's base (O + bug_inject): chunked takes n + 1 items, and its examples say what n gives.
const BUGGY = [
  'def chunked(xs, n):', //                                1
  '    """Split xs into lists of n.', //                   2
  '', //                                                   3
  '        >>> chunked([1, 2, 3, 4], 2)', //               4
  '        [[1, 2], [3, 4]]', //                           5
  '    """', //                                            6
  '    n = n + 1', //                                      7
  '    return [xs[i:i + n] for i in range(0, len(xs), n)]', // 8
  '',
  '',
  'def first(xs):', //                                     11
  '    """The first item.', //                             12
  '', //                                                   13
  '        >>> first([3, 4])', //                          14
  '        3', //                                          15
  '    """', //                                            16
  '    return xs[0]', //                                   17
  '',
].join('\n');

const texts = new Map([['pkg/more.py', BUGGY]]);
const patchOf = (...hunks: string[]) => parseUnifiedDiff(`diff --git a/pkg/more.py b/pkg/more.py\n--- a/pkg/more.py\n+++ b/pkg/more.py\n${hunks.join('')}`).files;

describe('dropExampleHunks (a Solver may not "fix" by editing doctest examples)', () => {
  it('drops the cheat: the expected output rewritten to what the bug returns', () => {
    const cheat = patchOf('@@ -5 +5 @@\n-        [[1, 2], [3, 4]]\n+        [[1, 2, 3], [4]]\n');
    expect(dropExampleHunks(cheat, texts)).toEqual({ kept: [], dropped: [{ path: 'pkg/more.py', reason: 'doctest-example' }] });
  });

  it('drops a hunk that edits an example beside a code line, and keeps the honest hunk of the same file', () => {
    const files = patchOf(
      '@@ -5,3 +5,3 @@\n-        [[1, 2], [3, 4]]\n+        [[1, 2, 3], [4]]\n     """\n-    n = n + 1\n+    n = n\n',
      '@@ -14,2 +14,3 @@\n         >>> first([3, 4])\n         3\n+        >>> first([5])\n',
      '@@ -17 +18 @@\n-    return xs[0]\n+    return xs[0] if xs else None\n',
    );
    const { kept, dropped } = dropExampleHunks(files, texts);
    expect(dropped).toEqual([{ path: 'pkg/more.py', reason: 'doctest-example' }]);
    expect(kept[0]!.hunks.map((h) => [h.oldStart, h.newStart])).toEqual([[17, 17]]);
    // What is left applies on its own and changes only the code.
    const after = applyPatch(BUGGY, formatGitDiff(kept));
    expect(after).toBe(BUGGY.replace('    return xs[0]\n', '    return xs[0] if xs else None\n'));
  });

  it('keeps an honest fix whole', () => {
    const fix = patchOf('@@ -7 +7 @@\n-    n = n + 1\n+    n = n\n');
    expect(dropExampleHunks(fix, texts)).toEqual({ kept: fix, dropped: [] });
  });

  it('keeps a section whose file text it was not given (no examples there)', () => {
    const other = parseUnifiedDiff('diff --git a/pkg/x.py b/pkg/x.py\n--- a/pkg/x.py\n+++ b/pkg/x.py\n@@ -1 +1 @@\n->>> a\n+>>> b\n').files;
    expect(dropExampleHunks(other, texts).kept).toEqual(other);
  });
});
