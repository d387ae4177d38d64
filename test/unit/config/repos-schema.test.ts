import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadReposFile, parseReposYaml } from '../../../src/config/load-repos.js';
import { resolveRepo } from '../../../src/config/resolve-repo.js';

const SHA = 'a'.repeat(40);

describe('parseReposYaml', () => {
  it('accepts a minimal entry and fills defaults lazily', () => {
    const file = parseReposYaml(`repos:\n  - id: demo\n    source: { git: https://example.com/x.git, commit: ${SHA} }\n`);
    expect(file.repos[0]).toMatchObject({ id: 'demo', image: { base: 'debian-python', packages: [], setup: [] }, test: { runner: 'pytest' } });
  });

  it('takes a JS runner under test.runner', () => {
    const file = parseReposYaml(`repos:\n  - id: js\n    source: { path: . }\n    image: { setup: [{ npm: ci }] }\n    test: { runner: vitest }\n`);
    expect(file.repos[0]!.test).toEqual({ runner: 'vitest' });
  });

  it('accepts every optional section', () => {
    const file = parseReposYaml(
      [
        'repos:',
        '  - id: full',
        '    repo: acme/full-lib.py',
        '    source: { path: ../somewhere }',
        '    image: { packages: [python3-numpy], setup: ["pip install -e ."] }',
        '    thresholds: { min_passing_tests: 5 }',
        '    limits: { test_timeout_s: 30, memory_mb: 1024, cpus: 2, pids: 256 }',
      ].join('\n'),
    );
    expect(file.repos[0]!.thresholds).toEqual({ min_passing_tests: 5, min_changed_files: 1, min_failing_tests: 1, max_failing_tests: 40, max_failing_files: 8 });
    expect(file.repos[0]!.limits.memory_mb).toBe(1024);
    expect(file.repos[0]!.repo).toBe('acme/full-lib.py');
  });

  it.each([
    ['a short commit', `repos:\n  - id: a\n    source: { git: u, commit: abc }\n`, 'repos[0].source.commit: expected a 40-hex sha'],
    ['git without commit', `repos:\n  - id: a\n    source: { git: u }\n`, 'repos[0].source.commit'],
    ['both path and git', `repos:\n  - id: a\n    source: { git: u, path: ., commit: ${SHA} }\n`, 'repos[0].source: expected exactly one of'],
    ['a bad third entry commit', `repos:\n  - id: a\n    source: { path: . }\n  - id: b\n    source: { path: . }\n  - id: c\n    source: { git: u, commit: 1234 }\n`, 'repos[2].source.commit: expected a 40-hex sha'],
    ['an unknown key', `repos:\n  - id: a\n    source: { path: . }\n    colour: red\n`, 'repos[0]'],
    ['a breadth cap below the minimum', `repos:\n  - id: a\n    source: { path: . }\n    thresholds: { min_failing_tests: 5, max_failing_tests: 4 }\n`, 'repos[0].thresholds.max_failing_tests: must be at least min_failing_tests (5)'],
    ['a negative threshold', `repos:\n  - id: a\n    source: { path: . }\n    thresholds: { min_passing_tests: -1 }\n`, 'repos[0].thresholds.min_passing_tests'],
    ['a bad package name', `repos:\n  - id: a\n    source: { path: . }\n    image: { packages: ["Bad Name"] }\n`, 'repos[0].image.packages[0]: expected a Debian package name'],
    ['a repo that is not owner/name', `repos:\n  - id: a\n    repo: acme\n    source: { path: . }\n`, 'repos[0].repo: expected owner/name'],
    ['an upper-case id', `repos:\n  - id: Demo\n    source: { path: . }\n`, 'repos[0].id'],
    ['duplicate ids', `repos:\n  - id: a\n    source: { path: . }\n  - id: a\n    source: { path: . }\n`, 'repos[1].id: duplicate id "a" (first at repos[0])'],
    ['no repos', `repos: []\n`, 'repos: expected at least one repo'],
    ['broken YAML', `repos:\n  - id: a\n   source: [\n`, 'broken YAML'],
    ['a missing top-level key', `other: 1\n`, 'repos'],
  ])('rejects %s, naming the path', (_label, text, expected) => {
    expect(() => parseReposYaml(text)).toThrow(expected);
  });

  it('says which commit is wrong with the exact sha message', () => {
    expect(() => parseReposYaml(`repos:\n  - id: a\n    source: { git: u, commit: 123 }\n`)).toThrow(/expected a 40-hex sha/);
  });
});

describe('resolveRepo', () => {
  function gitRepo(): string {
    const dir = mkdtempSync(join(tmpdir(), 'ssr-resolve-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe' }).toString().trim();
    git('init', '-q');
    writeFileSync(join(dir, 'a.py'), 'x = 1\n');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    return dir;
  }

  it('resolves a plain local path with defaults at HEAD', async () => {
    const dir = gitRepo();
    const head = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD']).toString().trim();
    const repo = await resolveRepo(dir, undefined);
    expect(repo).toMatchObject({ location: dir, commit: head, thresholds: { min_passing_tests: 10, min_changed_files: 1, min_failing_tests: 1 } });
    expect(repo.limits.test_timeout_s).toBe(90);
  });

  it('resolves an id relative to the repos.yaml folder and merges overrides', async () => {
    const dir = gitRepo();
    const yamlPath = join(dir, 'repos.yaml');
    writeFileSync(yamlPath, `repos:\n  - id: self\n    source: { path: . }\n    thresholds: { min_passing_tests: 3 }\n`);
    const repo = await resolveRepo('self', await loadReposFile(yamlPath));
    expect(repo.location).toBe(dir);
    expect(repo.thresholds).toEqual({ min_passing_tests: 3, min_changed_files: 1, min_failing_tests: 1, max_failing_tests: 40, max_failing_files: 8 });
  });

  it('explains an unknown id that is not a directory either', async () => {
    await expect(resolveRepo('nope-not-here', undefined)).rejects.toThrow(/^--repo nope-not-here: not an id in repos.yaml .* nor a local directory: pass one of those ids .*`ssr init <path>` writes its entry/);
  });

  it('rejects a directory that is not a git repository', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssr-nogit-'));
    await expect(resolveRepo(dir, undefined)).rejects.toThrow(/not a git repository/);
  });
});
