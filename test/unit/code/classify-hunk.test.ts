import { describe, expect, it } from 'vitest';
import { classifyFileHunks } from '../../../src/code/classify-hunk.js';
import { parseUnifiedDiff } from '../../../src/code/unified-diff.js';

const SOURCE = [
  'def chunked(xs, n):', //             1
  '    """Split xs.', //                2
  '', //                                3
  '        >>> chunked([1, 2, 3], 2)', // 4
  '        [[1, 2],', //                5
  '         [3]]', //                   6
  '        >>> for c in chunked(', //   7
  '        ...         [1], 1):', //    8
  '        ...     print(c)', //        9
  '        [1]', //                     10
  '    """', //                         11
  '    return [xs[i:i + n] for i in range(0, len(xs), n)]', // 12
  '',
].join('\n');

function diff(...hunks: string[]): ReturnType<typeof parseUnifiedDiff>['files'][number] {
  return parseUnifiedDiff(`diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n${hunks.join('')}`).files[0]!;
}

describe('classifyFileHunks', () => {
  it.each([
    ['an edited expected-output line (no prompt in the hunk)', '@@ -6 +6 @@\n-         [3]]\n+         [4]]\n', 'examples'],
    ['a removed example with its continuation lines and output', '@@ -6,7 +6,3 @@\n          [3]]\n-        >>> for c in chunked(\n-        ...         [1], 1):\n-        ...     print(c)\n-        [1]\n     """\n     return [xs[i:i + n] for i in range(0, len(xs), n)]\n', 'examples'],
    ['a changed code line next to the docstring', '@@ -11,2 +11,2 @@\n     """\n-    return [xs[i:i + n] for i in range(0, len(xs), n)]\n+    return [xs[i:i + n + 1] for i in range(0, len(xs), n)]\n', 'code'],
    ['a hunk that edits an example and the code', '@@ -10,3 +10,3 @@\n-        [1]\n+        [2]\n     """\n-    return [xs[i:i + n] for i in range(0, len(xs), n)]\n+    return [xs[i:i + n + 1] for i in range(0, len(xs), n)]\n', 'mixed'],
    ['an added example (a new prompt and its output)', '@@ -10,0 +11,2 @@\n+        >>> chunked([], 1)\n+        []\n', 'examples'],
    ['docstring prose (not an example)', '@@ -2 +2 @@\n-    """Split xs.\n+    """Split xs into chunks.\n', 'code'],
  ])('%s', (_name, hunk, kind) => {
    expect(classifyFileHunks(diff(hunk), SOURCE)).toEqual([kind]);
  });

  it('classifies each hunk of a section on its own', () => {
    const section = diff('@@ -6 +6 @@\n-         [3]]\n+         [4]]\n', '@@ -12 +12 @@\n-    return [xs[i:i + n] for i in range(0, len(xs), n)]\n+    return []\n');
    expect(classifyFileHunks(section, SOURCE)).toEqual(['examples', 'code']);
  });

  it('is null when the section does not apply to the text', () => {
    expect(classifyFileHunks(diff('@@ -6 +6 @@\n-         [9]]\n+         [4]]\n'), SOURCE)).toBeNull();
  });

  it('counts every hunk of a non-Python file as code', () => {
    const file = parseUnifiedDiff('diff --git a/r.txt b/r.txt\n--- a/r.txt\n+++ b/r.txt\n@@ -1 +1 @@\n->>> x\n+>>> y\n').files[0]!;
    expect(classifyFileHunks(file, '>>> x\n')).toEqual(['code']);
  });
});

describe('blank lines inside a docstring with examples', () => {
  it('go with a removed example without making the hunk code', () => {
    const source = 'def f():\n    """Doc.\n\n    >>> f()\n    1\n\n    >>> f() + 1\n    2\n    """\n    return 1\n';
    const section = parseUnifiedDiff('diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -3,4 +3,0 @@\n-\n-    >>> f()\n-    1\n-\n').files[0]!;
    expect(classifyFileHunks(section, source)).toEqual(['examples']);
  });
});
