import type { TempGitRepo } from './temp-git-repo.js';

/** A starting tree and an edit of it; `git diff` of the edit is the diff under test. */
export interface GitScenario {
  name: string;
  initial: Record<string, string | Buffer>;
  edit: (repo: TempGitRepo) => void;
}

const numbered = (count: number, tag = 'line'): string => Array.from({ length: count }, (_, i) => `${tag} ${i + 1}\n`).join('');

export const GIT_SCENARIOS: GitScenario[] = [
  {
    name: 'one-line modification',
    initial: { 'pkg/mod.py': 'def f(x):\n    return x + 1\n' },
    edit: (repo) => repo.write('pkg/mod.py', 'def f(x):\n    return x - 1\n'),
  },
  {
    name: 'multi-hunk file',
    initial: { 'big.py': numbered(60) },
    edit: (repo) => repo.write('big.py', numbered(60).replace('line 3\n', 'LINE 3\nextra\n').replace('line 50\n', '').replace('line 58\n', 'line 58!\n')),
  },
  {
    name: 'added file',
    initial: { 'a.py': 'a\n' },
    edit: (repo) => repo.write('pkg/new_mod.py', 'print("new")\nx = 1\n'),
  },
  {
    name: 'deleted file',
    initial: { 'a.py': 'a\n', 'pkg/gone.py': 'one\ntwo\n' },
    edit: (repo) => repo.remove('pkg/gone.py'),
  },
  {
    name: 'added and deleted empty files',
    initial: { 'empty_old.py': '' },
    edit: (repo) => {
      repo.remove('empty_old.py');
      repo.write('empty_new.py', '');
    },
  },
  {
    name: 'trailing newline removed',
    initial: { 'a.txt': 'x\ny\n' },
    edit: (repo) => repo.write('a.txt', 'x\ny'),
  },
  {
    name: 'trailing newline added',
    initial: { 'a.txt': 'x\ny' },
    edit: (repo) => repo.write('a.txt', 'x\ny\n'),
  },
  {
    name: 'no trailing newline on either side',
    initial: { 'a.txt': 'x\ny', 'b.txt': 'only' },
    edit: (repo) => {
      repo.write('a.txt', 'x\nz');
      repo.write('b.txt', 'changed');
    },
  },
  {
    name: 'added and deleted files without trailing newline',
    initial: { 'old.txt': 'bye' },
    edit: (repo) => {
      repo.remove('old.txt');
      repo.write('new.txt', 'hi');
    },
  },
  {
    name: 'pure rename',
    initial: { 'src/old_name.py': numbered(10) },
    edit: (repo) => repo.move('src/old_name.py', 'src/new_name.py'),
  },
  {
    name: 'rename with edits',
    initial: { 'src/old_name.py': numbered(20) },
    edit: (repo) => {
      repo.move('src/old_name.py', 'lib/new_name.py');
      repo.write('lib/new_name.py', numbered(20).replace('line 7\n', 'line seven\n'));
    },
  },
  {
    name: 'mode change only',
    initial: { 'run.sh': 'echo hi\n' },
    edit: (repo) => repo.chmod('run.sh', 0o755),
  },
  {
    name: 'mode change with edit',
    initial: { 'run.sh': 'echo hi\n' },
    edit: (repo) => {
      repo.write('run.sh', 'echo bye\n');
      repo.chmod('run.sh', 0o755);
    },
  },
  {
    name: 'binary modification and addition',
    initial: { 'data.bin': Buffer.from([0, 1, 2, 3, 255, 0]) },
    edit: (repo) => {
      repo.write('data.bin', Buffer.from([0, 9, 9, 3, 254]));
      repo.write('img.bin', Buffer.from([137, 80, 78, 71, 0, 0, 0, 13]));
    },
  },
  {
    name: 'names with spaces and non-ASCII characters',
    initial: { 'dir with space/a b.py': 'x\n', 'café.py': 'c\n' },
    edit: (repo) => {
      repo.write('dir with space/a b.py', 'y\n');
      repo.write('café.py', 'ç\n');
      repo.write('naïve new.py', 'n\n');
    },
  },
  {
    name: 'CRLF content',
    initial: { 'win.txt': 'a\r\nb\r\nc\r\n' },
    edit: (repo) => repo.write('win.txt', 'a\r\nB\r\nc\r\n'),
  },
  {
    name: 'every line removed, file kept',
    initial: { 'a.py': 'x\ny\n' },
    edit: (repo) => repo.write('a.py', ''),
  },
  {
    name: 'removed lines that look like file headers',
    initial: { 'notes.md': '-- dashes\n++ pluses\nkeep\n' },
    edit: (repo) => repo.write('notes.md', 'keep\n+++ more\n'),
  },
  {
    name: 'many files at once',
    initial: { 'a.py': numbered(5), 'b.py': numbered(5, 'b'), 'c.py': 'c\n', 'tests/test_a.py': 'def test(): pass\n' },
    edit: (repo) => {
      repo.write('a.py', numbered(4));
      repo.remove('c.py');
      repo.move('b.py', 'pkg/b.py');
      repo.write('tests/test_a.py', 'def test():\n    assert True\n');
      repo.write('d.py', 'd\n');
    },
  },
];
