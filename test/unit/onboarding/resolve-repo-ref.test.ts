import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReposFile } from '../../../src/config/load-repos.js';
import { resolveRepoRef } from '../../../src/onboarding/resolve-repo-ref.js';

/** A real git repo named `name` with `files` committed, in a fresh temp dir (the repos.yaml goes next to it). */
function gitRepo(name: string, files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ssr-ref-')), name);
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

const TAPE_REPO = {
  'index.js': 'module.exports = (a, b) => a + b;\n',
  'test/add.js': "const test = require('tape');\n",
  'package.json': '{"name": "adder", "scripts": {"test": "tape test/*.js"}, "devDependencies": {"tape": "^5"}}',
  'package-lock.json': '{"lockfileVersion": 3, "packages": {"": {}, "node_modules/tape": {}}}',
};
const PYTEST_REPO = { 'calc.py': 'def add(a, b):\n    return a + b\n', 'tests/test_calc.py': 'def test_add():\n    assert True\n', 'requirements.txt': 'six\n' };

async function reposNextTo(repo: string, yaml: string) {
  const file = join(dirname(repo), 'repos.yaml');
  writeFileSync(file, yaml);
  return loadReposFile(file);
}

describe('--repo <path>: detected as ssr init detects it', () => {
  it('a JS repo by path runs with its runner and npm ci, never as Python', async () => {
    const repo = await resolveRepoRef(gitRepo('adder', TAPE_REPO), undefined);
    expect(repo.testRunner).toBe('tape');
    expect(repo.image.setup).toEqual([{ npm: 'ci' }]);
  });

  it('a Python repo by path gets the pip step of its requirements file, pytest left implicit', async () => {
    const repo = await resolveRepoRef(gitRepo('calc', PYTEST_REPO), undefined);
    expect(repo.testRunner).toBeUndefined();
    expect(repo.image.setup).toEqual([{ pip: ['-r', 'requirements.txt'] }]);
  });

  it.each([
    ['a JS repo without a lockfile', { 'index.js': '', 'package.json': '{"scripts": {"test": "tape test/*.js"}}' }, /detected: javascript, tape \(package\.json scripts\.test: tape test\/\*\.js\); package-lock\.json: no package-lock\.json/],
    ['a Go repo', { 'main.go': 'package main\n' }, /detected: go, no test runner found; language: mostly go files/],
    ['a Python repo without tests', { 'lib.py': 'x = 1\n' }, /detected: python, no test runner found; tests: no test runner found/],
  ])('%s is refused in one line that names the repo, what was detected and `ssr init <path>`', async (_label, files, detected) => {
    const path = gitRepo('proj', files);
    const refusal = resolveRepoRef(path, undefined);
    await expect(refusal).rejects.toThrow(detected);
    const message = await refusal.catch((error: Error) => error.message);
    expect(message).toMatch(new RegExp(`^--repo ${path}: .*run \`ssr init ${path}\``));
    expect(message).not.toMatch(/\n/);
    if (!('lib.py' in files)) expect(message).not.toMatch(/pytest|doctest/);
  });

  it('a path that an entry points at resolves to that entry when they agree', async () => {
    const path = gitRepo('adder', TAPE_REPO);
    const repos = await reposNextTo(path, 'repos:\n  - id: adder\n    source: { path: adder }\n    test: { runner: tape }\n    image: { setup: [{ npm: ci }] }\n');
    expect(await resolveRepoRef(path, repos)).toMatchObject({ id: 'adder', testRunner: 'tape' });
  });

  it('an entry and a path that disagree are reported with both sides and the fix, not merged', async () => {
    const path = gitRepo('adder', TAPE_REPO);
    const repos = await reposNextTo(path, 'repos:\n  - id: other\n    source: { path: elsewhere }\n  - id: adder\n    source: { path: adder }\n');
    await expect(resolveRepoRef(path, repos)).rejects.toThrow(
      new RegExp(`--repo ${path}: the repos.yaml entry "adder" \\(.*repos\\.yaml:4\\) runs it with test.runner pytest \\(python\\), but its files at HEAD say javascript, tape .*\\(test.runner tape\\): fix test.runner in that entry or rewrite it with \`ssr init ${path} --id adder\``),
    );
    // By id the entry runs as written: the user chose it.
    expect(await resolveRepoRef('adder', repos)).toMatchObject({ id: 'adder' });
  });
});
