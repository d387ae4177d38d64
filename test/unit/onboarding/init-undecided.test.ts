import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReposFile } from '../../../src/config/load-repos.js';
import { runInit } from '../../../src/onboarding/run-init.js';
import { writeReposEntry } from '../../../src/onboarding/write-repos-entry.js';
import { silentProgress } from '../../../src/util/progress.js';

/** A real git repo with `files` committed. */
function gitRepo(name: string, files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ssr-init-')), name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  return dir;
}

const init = (path: string) => {
  const reposFile = join(dirname(path), 'repos.yaml');
  return { reposFile, run: () => runInit({ path, reposFile, backend: 'docker', dryRun: false, progress: silentProgress }) };
};

describe('ssr init: what it cannot decide (no sandbox needed)', () => {
  it.each([
    ['a repo without tests', { 'lib/calc.py': 'def add(a, b):\n    return a + b\n' }, 'tests', /no test runner found/],
    ['a Go repo', { 'main.go': 'package main\n', 'main_test.go': 'package main\n' }, 'language', /mostly go files \(2\); ssr init detects test runners for python, javascript, typescript only/],
    ['a JavaScript repo without package.json', { 'index.js': 'module.exports = 1;\n', 'test/a.test.js': 'test("x", () => {});\n' }, 'tests', /no package\.json .* add a package\.json whose scripts\.test runs the tests/],
    ['a JavaScript repo with no sign of a runner', { 'index.js': '', 'package.json': '{"name": "x"}' }, 'tests', /package\.json has no scripts\.test.*set scripts\.test to the command that runs the tests/],
    ['a JavaScript repo run by ava', { 'index.js': '', 'test.js': '', 'package.json': '{"scripts": {"test": "ava"}}', 'package-lock.json': '{}' }, 'tests', /^ava: `ava` is not a test runner ssr knows: .*jest, vitest, mocha, node-test, tape, node-tap.*test_script\.sh and test_parser\.py/],
    ['a JavaScript repo without a lockfile', { 'index.js': '', 'package.json': '{"scripts": {"test": "node --test"}}' }, 'package-lock.json', /no package-lock\.json or npm-shrinkwrap\.json at HEAD: .*npm ci.*`npm install --package-lock-only`/],
    ['a TypeScript repo with yarn.lock only', { 'src/a.ts': '', 'src/b.ts': '', 'package.json': '{"scripts": {"test": "jest"}}', 'yarn.lock': '' }, 'package-lock.json', /\(yarn\.lock is not read by npm ci\).*npm install --package-lock-only/],
    ['a TypeScript repo whose node:test tests are .ts', { 'src/a.ts': '', 'test/a.test.ts': "import test from 'node:test';\n", 'package.json': '{"scripts": {"test": "node --import tsx --test test/*.test.ts"}}', 'package-lock.json': '{}' }, 'tests', /^node-test: TypeScript test files \(test\/a\.test\.ts\) cannot run under node-test .*Node 18.*Run the suite with Vitest/],
    ['a doctest-only repo', { 'm.py': 'def f():\n    """\n    >>> f()\n    1\n    """\n    return 1\n' }, 'tests', /doctest: .*--doctest-modules/],
    ['a repo of no known language', { 'notes.md': '# notes\n' }, 'language', /no source file with a known extension/],
  ])('%s: says which field settles it and writes nothing', async (_label, files, field, why) => {
    const { reposFile, run } = init(gitRepo('proj', files));
    const result = await run();
    expect(result.status).toBe('undecided');
    expect(result.undecided).toEqual([{ field, why: expect.stringMatching(why) }]);
    expect(result.gate).toBeNull();
    expect(existsSync(reposFile)).toBe(false);
  });

  it('refuses a path that is not a git repository, and an id another repo uses', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'ssr-init-plain-'));
    await expect(runInit({ path: plain, reposFile: join(plain, 'r.yaml'), backend: 'docker', dryRun: true, progress: silentProgress })).rejects.toThrow(/is not a git repository/);
    const repo = gitRepo('proj', { 'a.py': '' });
    writeFileSync(join(dirname(repo), 'repos.yaml'), 'repos:\n  - id: proj\n    source: { path: ../elsewhere }\n');
    await expect(init(repo).run()).rejects.toThrow(/already has an entry "proj" for .*elsewhere: pass --id/);
  });
});

describe('writeReposEntry', () => {
  it('adds an entry to an existing file, keeping its comments, then replaces it in place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssr-write-'));
    const file = join(dir, 'repos.yaml');
    writeFileSync(file, '# my repos\nrepos:\n  # the first one\n  - id: first\n    source: { path: ./first }\n');
    expect(await writeReposEntry(file, { id: 'second', source: { path: './second' }, limits: { test_timeout_s: 30 } }, 'second: by init')).toBe(false);
    expect(await writeReposEntry(file, { id: 'second', source: { path: './second' }, limits: { test_timeout_s: 60 } }, 'second: again')).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# my repos\n');
    expect(text).toContain('# the first one\n');
    expect(text).toContain('# second: again\n');
    expect(text).not.toContain('second: by init');
    const loaded = await loadReposFile(file);
    expect(loaded.file.repos.map((repo) => [repo.id, repo.limits.test_timeout_s])).toEqual([['first', 90], ['second', 60]]);
  });

  it('creates the file when absent', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ssr-write-')), 'repos.yaml');
    await writeReposEntry(file, { id: 'one', source: { path: '.' } }, 'one');
    expect((await loadReposFile(file)).file.repos[0]!.id).toBe('one');
  });
});
