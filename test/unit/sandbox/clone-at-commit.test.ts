import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneAtCommit } from '../../../src/sandbox/images/clone-at-commit.js';

const SANDBOX = join(import.meta.dirname, '../../../src/sandbox');
const BACKENDS = { docker: 'docker/repo-image.ts', bwrap: 'bwrap/bwrap-template.ts' };

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();

function sandboxSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe('cloneAtCommit (real git)', () => {
  let root: string;
  let pinned: string;
  let clone: string;
  /** Objects only the future holds: c3, its tree and its blob "3\n", the side branch's commit and its annotated tag. */
  let future: string[];

  // One clone shared by the assertions: c1 (tag v1) ← c2 (pinned, tag v2) ← c3 (tag v3, 45 more
  // later tags: more than a 40-line output tail holds) plus a side branch and an annotated tag on it.
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'ssr-clone-at-commit-'));
    const origin = join(root, 'origin');
    git(root, 'init', '--quiet', '-b', 'main', origin);
    for (const n of [1, 2, 3]) {
      writeFileSync(join(origin, 'f.txt'), `${n}\n`);
      git(origin, 'add', 'f.txt');
      git(origin, 'commit', '--quiet', '-m', `c${n}`);
      git(origin, 'tag', `v${n}`);
      if (n === 2) pinned = git(origin, 'rev-parse', 'HEAD');
    }
    for (let i = 0; i < 45; i += 1) git(origin, 'tag', `later-${i}`);
    git(origin, 'checkout', '--quiet', '-b', 'side', 'v1');
    writeFileSync(join(origin, 'g.txt'), 'side\n');
    git(origin, 'add', 'g.txt');
    git(origin, 'commit', '--quiet', '-m', 'side');
    git(origin, 'tag', '-a', '-m', 'annotated', 'side-release');
    future = ['v3^{commit}', 'v3^{tree}', 'v3:f.txt', 'side', 'side:g.txt', 'side-release'].map((rev) => git(origin, 'rev-parse', rev));
    clone = join(root, 'clone');
    await cloneAtCommit(origin, pinned, clone);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('leaves branch main at the pinned commit, with no other branch and no remote', () => {
    expect(git(clone, 'rev-parse', 'HEAD')).toBe(pinned);
    expect(git(clone, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git(clone, 'for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/remotes')).toBe('refs/heads/main');
    expect(git(clone, 'remote')).toBe('');
    expect(readFileSync(join(clone, 'f.txt'), 'utf8')).toBe('2\n');
  });

  it('keeps the tags in the commit’s history and drops every tag that points at a later or other commit', () => {
    expect(git(clone, 'tag').split('\n').sort()).toEqual(['v1', 'v2']);
  });

  it('holds no object of a later or other commit: nothing dangling, reflogs empty', () => {
    const held = new Set(git(clone, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)').split('\n'));
    expect(future.filter((sha) => held.has(sha))).toEqual([]);
    expect(git(clone, 'fsck', '--unreachable', '--no-progress')).toBe('');
    expect(git(clone, 'log', '--all', '--reflog', '--format=%s').split('\n')).toEqual(['c2', 'c1']);
  });

  it.each(Object.entries(BACKENDS))('is the one implementation the %s backend clones with', (_backend, file) => {
    expect(readFileSync(join(SANDBOX, file), 'utf8')).toContain("import { cloneAtCommit } from '../images/clone-at-commit.js';");
    expect(sandboxSources(SANDBOX).filter((name) => name === 'clone-at-commit.ts')).toHaveLength(1);
  });
});
