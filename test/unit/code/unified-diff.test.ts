import { applyPatch } from 'diff';
import { afterEach, describe, expect, it } from 'vitest';
import { formatGitDiff } from '../../../src/code/format-git-diff.js';
import { parseUnifiedDiff, type FileDiff } from '../../../src/code/unified-diff.js';
import { GIT_SCENARIOS } from './git-scenarios.js';
import { TempGitRepo } from './temp-git-repo.js';

let repo: TempGitRepo | undefined;
afterEach(() => repo?.dispose());

interface GitView {
  kind: FileDiff['kind'];
  oldPath: string | null;
  newPath: string | null;
  addedLines: number;
  removedLines: number;
  binary: boolean;
}

const KIND: Record<string, FileDiff['kind']> = { A: 'added', D: 'deleted', M: 'modified', R: 'renamed' };

/** What git itself says the staged diff does, from `--name-status -z` and `--numstat -z`. */
function gitView(repo: TempGitRepo): GitView[] {
  const status = repo.git('diff', '--cached', '-M', '--name-status', '-z').split('\0');
  const numstat = repo.git('diff', '--cached', '-M', '--numstat', '-z').split('\0');
  const views: GitView[] = [];
  for (let i = 0, n = 0; i < status.length - 1; n++) {
    const letter = status[i]![0]!;
    const renamed = letter === 'R';
    const oldPath = status[i + 1]!;
    const newPath = renamed ? status[i + 2]! : oldPath;
    i += renamed ? 3 : 2;
    // numstat -z: "added\tremoved\tpath\0", or for a rename "added\tremoved\t\0old\0new\0".
    const [added, removed] = numstat[n]!.split('\t');
    if (renamed) numstat.splice(n + 1, 2);
    views.push({
      kind: KIND[letter]!,
      oldPath: letter === 'A' ? null : oldPath,
      newPath: letter === 'D' ? null : newPath,
      addedLines: added === '-' ? 0 : Number(added),
      removedLines: removed === '-' ? 0 : Number(removed),
      binary: added === '-',
    });
  }
  return views;
}

const byPath = (a: GitView, b: GitView): number => (a.newPath ?? a.oldPath!).localeCompare(b.newPath ?? b.oldPath!);

describe('parseUnifiedDiff on real git output', () => {
  it.each(GIT_SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s: agrees with git --name-status/--numstat', (_name, scenario) => {
    repo = TempGitRepo.create(scenario.initial);
    scenario.edit(repo);
    const diff = repo.diff();
    const parsed = parseUnifiedDiff(diff);
    const mine = parsed.files.map(({ kind, oldPath, newPath, addedLines, removedLines, binary }) => ({ kind, oldPath, newPath, addedLines, removedLines, binary }));
    expect(mine.sort(byPath)).toEqual(gitView(repo).sort(byPath));
    const touched = new Set(parsed.files.flatMap((file) => [file.oldPath, file.newPath]).filter((path) => path !== null));
    expect(parsed.touchedPaths).toEqual([...touched].sort());
    // Nothing is lost: writing the parse back out gives git's own text.
    expect(formatGitDiff(parsed.files)).toBe(diff);
  });

  it('gives hunks the `diff` package can apply', () => {
    const before = Array.from({ length: 30 }, (_, i) => `row ${i}\n`).join('');
    const after = before.replace('row 2\n', 'row two\n').replace('row 25\n', 'row 25\nrow 25.5\n');
    repo = TempGitRepo.create({ 'f.txt': before });
    repo.write('f.txt', after);
    const [file] = parseUnifiedDiff(repo.diff()).files;
    expect(file!.hunks).toHaveLength(2);
    expect(applyPatch(before, { oldFileName: 'f.txt', newFileName: 'f.txt', oldHeader: '', newHeader: '', hunks: file!.hunks })).toBe(after);
  });

  it('parses the bytes of a diff the same as its text', () => {
    repo = TempGitRepo.create({ 'café.py': 'a\n' });
    repo.write('café.py', 'b\n');
    const diff = repo.diff();
    expect(parseUnifiedDiff(Buffer.from(diff, 'utf8'))).toEqual(parseUnifiedDiff(diff));
    expect(parseUnifiedDiff(diff).touchedPaths).toEqual(['café.py']);
  });
});

const files = (diff: string): Array<Pick<FileDiff, 'kind' | 'oldPath' | 'newPath' | 'addedLines' | 'removedLines' | 'binary'>> =>
  parseUnifiedDiff(diff).files.map(({ kind, oldPath, newPath, addedLines, removedLines, binary }) => ({ kind, oldPath, newPath, addedLines, removedLines, binary }));

const mod = (path: string, addedLines: number, removedLines: number, binary = false) => ({ kind: 'modified' as const, oldPath: path, newPath: path, addedLines, removedLines, binary });

describe('parseUnifiedDiff on hand-written diffs', () => {
  it.each([
    { name: 'empty string', diff: '', expected: [] },
    { name: 'blank lines only', diff: '\n\n  \n', expected: [] },
    {
      name: 'plain diff -u with timestamps',
      diff: '--- a/x.py\t2024-01-01 10:00:00.000000000 +0000\n+++ b/x.py\t2024-01-02 10:00:00.000000000 +0000\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n',
      expected: [mod('x.py', 1, 1)],
    },
    {
      name: 'plain diff without directories patches the +++ file',
      diff: '--- x.py.orig\n+++ x.py\n@@ -1 +1 @@\n-a\n+b\n',
      expected: [mod('x.py', 1, 1)],
    },
    {
      name: 'diff -ruN marks absent sides with the epoch',
      diff: [
        'diff -ruN old/new.py new/new.py',
        '--- old/new.py\t1970-01-01 00:00:00.000000000 +0000',
        '+++ new/new.py\t2024-01-01 00:00:00.000000000 +0000',
        '@@ -0,0 +1 @@',
        '+n',
        'Only in new: other',
        'diff -ruN old/gone.py new/gone.py',
        '--- old/gone.py\t2024-01-01 00:00:00.000000000 +0000',
        '+++ new/gone.py\t1969-12-31 19:00:00.000000000 -0500',
        '@@ -1 +0,0 @@',
        '-g',
        'Binary files old/pic.png and new/pic.png differ',
        '',
      ].join('\n'),
      expected: [
        { kind: 'added', oldPath: null, newPath: 'new.py', addedLines: 1, removedLines: 0, binary: false },
        { kind: 'deleted', oldPath: 'gone.py', newPath: null, addedLines: 0, removedLines: 1, binary: false },
        mod('pic.png', 0, 0, true),
      ],
    },
    {
      name: 'git format-patch mail with preamble and signature',
      diff: [
        'From 1234 Mon Sep 17 00:00:00 2001',
        'Subject: [PATCH] fix',
        '',
        '---',
        ' x.py | 2 +-',
        '',
        'diff --git a/x.py b/x.py',
        'index 1111111..2222222 100644',
        '--- a/x.py',
        '+++ b/x.py',
        '@@ -1 +1 @@ def f():',
        '-a',
        '+b',
        '-- ',
        '2.39.5',
        '',
      ].join('\n'),
      expected: [mod('x.py', 1, 1)],
    },
    {
      name: 'hunk-less git sections: rename, mode change, empty add and delete',
      diff: [
        'diff --git a/old name.py b/new name.py',
        'similarity index 100%',
        'rename from old name.py',
        'rename to new name.py',
        'diff --git a/has space.sh b/has space.sh',
        'old mode 100644',
        'new mode 100755',
        'diff --git a/e.py b/e.py',
        'new file mode 100644',
        'index 0000000..e69de29',
        'diff --git a/f.py b/f.py',
        'deleted file mode 100644',
        'index e69de29..0000000',
        '',
      ].join('\n'),
      expected: [
        { kind: 'renamed', oldPath: 'old name.py', newPath: 'new name.py', addedLines: 0, removedLines: 0, binary: false },
        mod('has space.sh', 0, 0),
        { kind: 'added', oldPath: null, newPath: 'e.py', addedLines: 0, removedLines: 0, binary: false },
        { kind: 'deleted', oldPath: 'f.py', newPath: null, addedLines: 0, removedLines: 0, binary: false },
      ],
    },
    {
      name: 'quoted names',
      diff: 'diff --git "a/tab\\there.py" "b/tab\\there.py"\n--- "a/tab\\there.py"\n+++ "b/tab\\there.py"\n@@ -1 +1 @@\n-a\n+b\n',
      expected: [mod('tab\there.py', 1, 1)],
    },
    {
      name: 'binary added file without data',
      diff: 'diff --git a/p.png b/p.png\nnew file mode 100644\nindex 0000000..1234567\nBinary files /dev/null and b/p.png differ\n',
      expected: [{ kind: 'added', oldPath: null, newPath: 'p.png', addedLines: 0, removedLines: 0, binary: true }],
    },
    {
      name: 'a blank line inside a hunk counts as an empty context line',
      diff: '--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n',
      expected: [mod('x.py', 1, 1)],
    },
    {
      name: 'removed and added lines that look like file headers',
      diff: '--- a/x.md\n+++ b/x.md\n@@ -1,2 +1,2 @@\n--- old rule\n+++ new rule\n keep\n',
      expected: [mod('x.md', 1, 1)],
    },
    {
      name: 'omitted counts mean one line',
      diff: '--- a/x\n+++ b/x\n@@ -3 +3 @@\n-a\n+b\n',
      expected: [mod('x', 1, 1)],
    },
  ])('$name', ({ diff, expected }) => {
    expect(files(diff)).toEqual(expected);
  });

  it('keeps CR bytes of CRLF content lines', () => {
    const [file] = parseUnifiedDiff('--- a/w.txt\n+++ b/w.txt\n@@ -1 +1 @@\n-a\r\n+b\r\n').files;
    expect(file!.hunks[0]!.lines).toEqual(['-a\r', '+b\r']);
  });

  it('records starts the `diff` package way and the hunk heading', () => {
    const [file] = parseUnifiedDiff('--- a/x\n+++ b/x\n@@ -4,2 +3,0 @@ class A:\n-x\n-y\n').files;
    expect(file!.hunks[0]).toEqual({ oldStart: 4, oldLines: 2, newStart: 4, newLines: 0, lines: ['-x', '-y'], heading: ' class A:' });
  });
});

describe('parseUnifiedDiff rejects bad input with DiffParseError', () => {
  it.each([
    { name: 'NUL character', diff: 'diff --git a/x b/x\n\0\0\0', message: /line 2: binary data \(NUL character at offset 19\)/ },
    { name: 'NUL byte', diff: Buffer.from([0x2d, 0x2d, 0x0a, 0x00]), message: /line 2: binary data at byte 3 \(NUL byte\); expected a text unified diff/ },
    { name: 'invalid UTF-8', diff: Buffer.from([0x61, 0x0a, 0x62, 0xff, 0xfe]), message: /line 2: binary data at byte 3 \(invalid UTF-8\)/ },
    { name: 'prose', diff: '\nplease fix the bug\n', message: /line 2: not a unified diff: .* it starts with "please fix the bug"/ },
    { name: 'hunk shorter than its header', diff: '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n', message: /line 3: the hunk "@@ -1,3 \+1,3 @@" ends early: its header declares 1 more old and 1 more new line/ },
    {
      name: 'hunk shorter than its header, next file follows',
      diff: '--- a/x\n+++ b/x\n@@ -1,4 +1,4 @@\n a\n-b\n+c\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-1\n+2\n',
      message: /line 9: expected a ' ', '-', '\+' or '\\' line in the hunk at line 3, got "@@ -1 \+1 @@": its header "@@ -1,4 \+1,4 @@" declares 1 more old and 1 more new/,
    },
    {
      name: 'git hunk longer than its header',
      diff: 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n',
      message: /line 7: unexpected "\+c": the hunk before it has more lines than its header declares/,
    },
    { name: 'plain hunk longer than its header', diff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n', message: /line 6: unexpected "\+c" after a hunk ended/ },
    { name: 'more removed lines than declared', diff: '--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n-a\n-b\n+c\n', message: /line 5: the hunk at line 3 has more old \(context or removed\) lines/ },
    { name: 'malformed hunk header', diff: '--- a/x\n+++ b/x\n@@ -a +b @@\n-a\n', message: /line 3: malformed hunk header "@@ -a \+b @@"/ },
    { name: 'plain header without hunks', diff: '--- a/x\n+++ b/x\n', message: /line 1: the file header "--- a\/x" has no hunks/ },
    { name: 'git header without hunks', diff: 'diff --git a/x b/x\nindex 1111111..2222222 100644\n', message: /line 1: no hunks, and no rename, mode change, or empty-file add or delete/ },
    { name: 'git file header without hunks', diff: 'diff --git a/x b/x\n--- a/x\n+++ b/x\n', message: /line 2: the file header "--- a\/x" has no hunks/ },
    { name: '--- without +++', diff: 'diff --git a/x b/x\n--- a/x\n@@ -1 +1 @@\n-a\n+b\n', message: /line 2: the "---" file header "--- a\/x" is not followed by a "\+\+\+" header/ },
    { name: 'hunk without file header', diff: '@@ -1 +1 @@\n-a\n+b\n', message: /line 1: hunk header "@@ -1 \+1 @@" without a "---"\/"\+\+\+" file header/ },
    { name: 'garbage inside a hunk', diff: '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n*b\n', message: /line 5: expected a ' ', '-', '\+' or '\\' line .* got "\*b"/ },
    { name: 'no-newline marker first in a hunk', diff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n\\ No newline at end of file\n-a\n+b\n', message: /line 4: "\\\\ No newline at end of file" does not follow a diff line/ },
    { name: 'new file with old lines', diff: 'diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', message: /line 1: a new file's hunk has 1 old line/ },
    { name: 'both sides /dev/null', diff: '--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n', message: /line 1: both sides of the file header are \/dev\/null/ },
    { name: 'unknown git header line', diff: 'diff --git a/x b/x\nsimilarity 12\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', message: /line 2: unexpected "similarity 12": not a git extended header/ },
    { name: 'renamed names without rename header', diff: 'diff --git a/x b/y\n--- a/x\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n', message: /line 1: old name "x" and new name "y" differ without a "rename" header/ },
    { name: 'empty binary patch', diff: 'diff --git a/x b/x\nindex 1..2 100644\nGIT binary patch\n\n', message: /line 3: "GIT binary patch" without a "literal N" or "delta N" block/ },
  ])('$name', ({ diff, message }) => {
    let error: unknown;
    try {
      parseUnifiedDiff(diff);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ name: 'DiffParseError', code: 'diff-invalid' });
    expect((error as Error).message).toMatch(message);
  });
});
