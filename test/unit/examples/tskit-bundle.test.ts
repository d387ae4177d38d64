import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCodePath, isTestPath } from '../../../src/code/classify-path.js';
import { languageOfPath } from '../../../src/code/source-language.js';
import { loadReposFile } from '../../../src/config/load-repos.js';
import { resolveRepo } from '../../../src/config/resolve-repo.js';
import { listCandidates } from '../../../src/mutation/mutate.js';
import { ROOT_REPOS_YAML } from '../../helpers/sandboxes.js';

// The TypeScript example (examples/tskit.bundle, pinned in repos.yaml): its modules are code the
// JS/TS operators mutate, its tests are test paths, and its history has the commits the history
// strategy reverts.
describe('the tskit example bundle', () => {
  let clone: string;
  const git = (...args: string[]) => execFileSync('git', ['-C', clone, ...args], { encoding: 'utf8' }).trim();
  beforeAll(() => {
    clone = join(mkdtempSync(join(tmpdir(), 'ssr-tskit-')), 'tskit');
    execFileSync('git', ['clone', '-q', join(__dirname, '../../../examples/tskit.bundle'), clone]);
  });
  afterAll(() => rmSync(join(clone, '..'), { recursive: true, force: true }));

  it('is at the commit repos.yaml pins, with a vitest runner', async () => {
    const repo = await resolveRepo('tskit', await loadReposFile(ROOT_REPOS_YAML));
    expect(git('rev-parse', 'HEAD')).toBe(repo.commit);
    expect(repo.testRunner).toBe('vitest');
  });

  it('has TypeScript modules that are code and TypeScript tests that are test paths', () => {
    const files = git('ls-files').split('\n');
    const code = files.filter(isCodePath);
    expect(code).toEqual(['src/duration.ts', 'src/emitter.ts', 'src/lru-cache.ts', 'src/query-string.ts', 'src/range.ts', 'src/semver.ts', 'vitest.config.ts']);
    expect(code.every((file) => languageOfPath(file) === 'typescript')).toBe(true);
    expect(files.filter((file) => file.endsWith('.test.ts')).every(isTestPath)).toBe(true);
  });

  it('gives the JS/TS operators candidates in every module, JavaScript\'s own mistakes among them', () => {
    const operators = new Set<string>();
    for (const file of ['duration', 'emitter', 'lru-cache', 'query-string', 'range', 'semver']) {
      const candidates = listCandidates(readFileSync(join(clone, 'src', `${file}.ts`), 'utf8'), { language: 'typescript' });
      expect(candidates.length, file).toBeGreaterThan(20);
      for (const candidate of candidates) operators.add(candidate.operator);
    }
    expect([...operators]).toEqual(expect.arrayContaining(['js-this-binding', 'js-nullish-swap', 'js-optional-chaining', 'js-copied-array', 'js-loose-equality', 'js-bound-off-by-one']));
  });

  it('has fix and edge-case commits for the history strategy, each touching code and tests', () => {
    const subjects = git('log', '--format=%s').split('\n');
    expect(subjects).toHaveLength(7);
    const fixes = git('log', '--format=%h', '-E', '--grep=^(Fix|Handle)').split('\n');
    expect(fixes).toHaveLength(3);
    for (const sha of fixes) {
      const changed = git('diff-tree', '--no-commit-id', '--name-only', '-r', sha).split('\n');
      expect(changed.some(isCodePath), sha).toBe(true);
      expect(changed.some(isTestPath), sha).toBe(true);
    }
  });
});
