import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageRecipeSchema, limitsSchema, thresholdsSchema } from '../../../src/config/repos-schema.js';
import type { ResolvedRepo } from '../../../src/config/resolve-repo.js';
import { RepoHistoryReader } from '../../../src/mining/repo-history-reader.js';
import { runMine } from '../../../src/mining/run-mine.js';
import { parseUnifiedDiff } from '../../../src/code/unified-diff.js';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import { silentProgress } from '../../../src/util/progress.js';

// Real git histories that hold no candidate: every commit is sorted out on the host, so no
// sandbox is ever needed, and what a bad history gives is a count per reason, never a crash.
const ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();

async function commit(repo: string, files: Record<string, string>, message: string): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(repo, path, '..'), { recursive: true });
    await writeFile(join(repo, path), text);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

const repoAt = (location: string, commit: string): ResolvedRepo => ({
  id: 'hist', location, commit, image: imageRecipeSchema.parse({}), thresholds: thresholdsSchema.parse({}), limits: limitsSchema.parse({}),
});

describe('ssr mine on histories without a candidate (real git, no sandbox)', () => {
  let root: string;
  let repo: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-mine-hist-'));
    repo = join(root, 'repo');
    await mkdir(repo);
    git(repo, 'init', '-q', '-b', 'main');
    await commit(repo, { 'lib/a.py': 'x = 1\n', 'tests/test_a.py': 'def test_a():\n    pass\n' }, 'initial');
    git(repo, 'checkout', '-q', '-b', 'side');
    await commit(repo, { 'lib/a.py': 'x = 2\n' }, 'code only');
    git(repo, 'checkout', '-q', 'main');
    await commit(repo, { 'tests/test_b.py': 'def test_b():\n    pass\n' }, 'tests only');
    git(repo, 'merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    await commit(repo, { 'README.md': 'docs\n' }, 'docs only');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const mine = (location: string, out: string, extra: { max?: number; maxCommits?: number; since?: string } = {}) =>
    runMine({ repo: repoAt(location, git(location, 'rev-parse', 'HEAD')), backend: 'docker', provider: createProvider('docker'), out: join(root, out), concurrency: 1, onLine: () => {}, progress: silentProgress, ...extra });

  it('counts every commit by reason: merge, root, no test change, no code change', async () => {
    const summary = await mine(repo, 'full');
    expect(summary).toMatchObject({ commitsListed: 5, scanned: 5, mined: 0, bugIds: [], multiFile: 0, shallow: false, stoppedBy: 'history-end', infrastructure: 0, removedImages: [] });
    expect(summary.skipped).toMatchObject({ 'merge-commit': 1, 'root-commit': 1, 'no-test-change': 2, 'no-code-change': 1 });
    const lines = (await readFile(join(root, 'full', 'mined.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(5);
  });

  it('resumes: a rerun judges nothing again; --max-commits and --since narrow the window', async () => {
    const again = await mine(repo, 'full');
    expect(again.scanned).toBe(5);
    expect((await readFile(join(root, 'full', 'mined.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(5);
    expect(await mine(repo, 'two', { maxCommits: 2 })).toMatchObject({ commitsListed: 2, scanned: 2, stoppedBy: 'max-commits' });
    expect(await mine(repo, 'since', { since: 'HEAD~1' })).toMatchObject({ commitsListed: 1, skipped: expect.objectContaining({ 'no-test-change': 1 }) });
    await expect(mine(repo, 'since-bad', { since: 'no-such-tag' })).rejects.toThrow(/--since no-such-tag: no such commit in .*repo/);
  });

  it('a shallow clone: its oldest commit is counted as the shallow boundary, not as a root', async () => {
    const shallow = join(root, 'shallow');
    git(root, 'clone', '-q', '--depth', '2', `file://${repo}`, shallow);
    const summary = await mine(shallow, 'shallow-out');
    expect(summary.shallow).toBe(true);
    expect(summary.skipped['shallow-boundary']).toBeGreaterThanOrEqual(1);
    expect(summary.skipped['root-commit']).toBe(0);
  });

  it('a repo of one commit: one root commit scanned, nothing found', async () => {
    const single = join(root, 'single');
    await mkdir(single);
    git(single, 'init', '-q', '-b', 'main');
    await commit(single, { 'lib/a.py': 'x = 1\n' }, 'only');
    expect(await mine(single, 'single-out')).toMatchObject({ commitsListed: 1, scanned: 1, mined: 0, skipped: expect.objectContaining({ 'root-commit': 1 }) });
  });

  it('diffs exactly as git prints them: a hunk whose last context line is blank keeps it', async () => {
    const blank = join(root, 'blank');
    await mkdir(blank);
    git(blank, 'init', '-q', '-b', 'main');
    await commit(blank, { 'lib/f.py': 'x = 1\n\n' }, 'one');
    await commit(blank, { 'lib/f.py': 'x = 2\n\n' }, 'two');
    const reader = await RepoHistoryReader.open(blank);
    try {
      const diff = await reader.diff(git(blank, 'rev-parse', 'HEAD'), git(blank, 'rev-parse', 'HEAD~1'), ['lib/f.py']);
      expect(diff.endsWith('-x = 2\n+x = 1\n \n')).toBe(true);
      expect(parseUnifiedDiff(diff).touchedPaths).toEqual(['lib/f.py']);
    } finally {
      await reader.close();
    }
  });

  it('sorts a window on the host in a constant number of git processes, not two per skipped commit', async () => {
    const long = join(root, 'long');
    await mkdir(long);
    git(long, 'init', '-q', '-b', 'main');
    for (let i = 0; i < 20; i++) await commit(long, { 'README.md': `docs ${i}\n` }, `docs ${i}`);
    // Real git behind a PATH entry that counts its starts.
    const shim = join(root, 'git-shim');
    const count = join(root, 'git-count');
    await mkdir(shim);
    await writeFile(join(shim, 'git'), `#!/bin/sh\necho x >> '${count}'\nexec ${execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()} "$@"\n`, { mode: 0o755 });
    await writeFile(count, '');
    const path = process.env.PATH;
    process.env.PATH = `${shim}:${path}`;
    let summary;
    try {
      summary = await mine(long, 'long-out');
    } finally {
      process.env.PATH = path;
    }
    expect(summary).toMatchObject({ commitsListed: 20, scanned: 20, skipped: expect.objectContaining({ 'root-commit': 1, 'no-test-change': 19 }) });
    const records = (await readFile(join(root, 'long-out', 'mined.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { subject: string });
    expect(records.map((record) => record.subject)).toEqual(Array.from({ length: 20 }, (_, i) => `docs ${19 - i}`));
    // Opening the repository and one git log: before, a diff-tree and a git show per commit (40 more).
    expect((await readFile(count, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(2);
  });

  it('refuses to resume a mined set with another repo', async () => {
    const single = join(root, 'single');
    await expect(mine(single, 'full')).rejects.toThrow(/holds commits mined from hist at .*give another --out/);
  });
});
