import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadReposFile } from '../../src/config/load-repos.js';
import { resolveRepo } from '../../src/config/resolve-repo.js';
import { initResultSchema } from '../../src/onboarding/init-result.js';
import { dockerClient } from '../../src/sandbox/docker/docker-client.js';
import { repoImageTag } from '../../src/sandbox/docker/repo-image.js';
import { runCli } from '../helpers/cli.js';
import { expectLimitFollowsCleanRuns } from '../helpers/gate-limit.js';
import { localPackageIndex } from '../helpers/local-package-index.js';

// `ssr init` end to end: real detection, a real image build, the real golden gate in Docker.
const EXAMPLES = join(dirname(new URL(import.meta.url).pathname), '..', '..', 'examples');
const savedIndex = process.env.PIP_INDEX_URL;
afterEach(() => {
  if (savedIndex === undefined) delete process.env.PIP_INDEX_URL;
  else process.env.PIP_INDEX_URL = savedIndex;
});

function clone(bundle: string, name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ssr-init-')), name);
  execFileSync('git', ['clone', '-q', join(EXAMPLES, bundle), dir]);
  return dir;
}

describe('ssr init', () => {
  it('onboards the pyledger example: pytest, two clean runs, an entry that loads and names the same image', async () => {
    const repo = clone('pyledger.bundle', 'PyLedger');
    const reposFile = join(dirname(repo), 'repos.yaml');
    const run = await runCli(['init', repo, '--repos', reposFile, '--sandbox', 'docker', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = initResultSchema.parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({ status: 'written', id: 'pyledger', language: { language: 'python' }, runner: { runner: 'pytest', supported: true }, undecided: [] });
    expect(result.gate).toMatchObject({ status: 'passed' });
    expect(result.cleanSuite!.passed).toBeGreaterThanOrEqual(10);
    const loaded = await loadReposFile(reposFile);
    // The gate keeps the default 90 s unless the load pushed the clean suite near it (see gate-limit.ts);
    // the entry keeps a raise only when measured on a quiet machine (init-test-timeout.ts).
    if (result.gate?.status === 'passed') expectLimitFollowsCleanRuns(result.gate, 90_000);
    const timeout = result.testTimeout!;
    const limit = timeout.written;
    expect(limit).toBe(timeout.raiseWritten && result.gate?.status === 'passed' ? result.gate.testTimeoutMs / 1000 : 90);
    expect(loaded.file.repos[0]).toMatchObject({ id: 'pyledger', source: { path: 'PyLedger', commit: result.commit }, limits: { test_timeout_s: limit } });
    expect(readFileSync(reposFile, 'utf8')).toContain('# pyledger: written by ssr init: python, pytest (');
    // What selfplay will build from the entry is the very image the gate ran in.
    const resolved = await resolveRepo('pyledger', loaded);
    expect(result.gate!.image).toBe(repoImageTag(resolved));
    // Not removed: the clone's commit and recipe are the example's, so this is the pyledger image every test shares (image tags name content).
  }, 600_000);

  it('installs requirements.txt from the user\'s index, and lowers min_passing_tests for a small suite (--dry-run)', async () => {
    const index = await localPackageIndex();
    process.env.PIP_INDEX_URL = index.fileUrl;
    const dir = join(mkdtempSync(join(tmpdir(), 'ssr-init-')), 'needs-dep');
    mkdirSync(join(dir, 'tests'), { recursive: true });
    writeFileSync(join(dir, 'requirements.txt'), `${index.distribution}\n`);
    writeFileSync(join(dir, 'lib.py'), `import ${index.module}\n\ndef answer():\n    return ${index.module}.ANSWER\n`);
    writeFileSync(join(dir, 'tests', 'test_lib.py'), `import unittest\nimport sys\nsys.path.insert(0, '.')\nfrom lib import answer\n\nclass T(unittest.TestCase):\n    def test_answer(self):\n        self.assertEqual(answer(), 42)\n\n    def test_answer_is_int(self):\n        self.assertIsInstance(answer(), int)\n`);
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'init');
    const reposFile = join(dirname(dir), 'repos.yaml');
    const run = await runCli(['init', dir, '--repos', reposFile, '--sandbox', 'docker', '--dry-run', '--json']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = initResultSchema.parse(JSON.parse(run.stdout));
    expect(result.runner).toMatchObject({ runner: 'unittest', testCommand: 'python3 -m unittest discover -v' });
    expect(result.cleanSuite).toEqual({ passed: 2, failed: 0 });
    expect(result.entry).toMatchObject({ id: 'needs-dep', image: { setup: [{ pip: ['-r', 'requirements.txt'] }] }, thresholds: { min_passing_tests: 2 } });
    expect(result.status).toBe('dry-run');
    expect(() => readFileSync(reposFile)).toThrow();
    await dockerClient().getImage(result.gate!.image).remove({ force: true }).catch(() => undefined);
  }, 600_000);

  it('a suite that cannot import a module: init names it and tries its pip step once by itself (--dry-run)', async () => {
    const index = await localPackageIndex();
    process.env.PIP_INDEX_URL = index.fileUrl;
    const dir = join(mkdtempSync(join(tmpdir(), 'ssr-init-')), 'undeclared-dep');
    mkdirSync(join(dir, 'tests'), { recursive: true });
    writeFileSync(join(dir, 'lib.py'), `import ${index.module}\n\ndef answer():\n    return ${index.module}.ANSWER\n`);
    writeFileSync(join(dir, 'tests', 'test_lib.py'), 'import sys\nsys.path.insert(0, ".")\nfrom lib import answer\n\ndef test_answer():\n    assert answer() == 42\n');
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' } });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'init');
    // Fixed dates: the same commit, so the first gate's image (without the step) is one tag that later runs reuse.
    const run = await runCli(['init', dir, '--repos', join(dirname(dir), 'repos.yaml'), '--sandbox', 'docker', '--dry-run', '--json']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = initResultSchema.parse(JSON.parse(run.stdout));
    expect(result.notes).toContain(`the clean suite could not import ${index.module} ("ModuleNotFoundError: No module named '${index.module}'"): tried the gate again once with the image.setup step {"pip":"${index.module}"}`);
    expect(result.cleanSuite).toEqual({ passed: 1, failed: 0 });
    expect(result.entry).toMatchObject({ image: { setup: [{ pip: index.module }] } });
    // Not removed: fixed dates make the same commit, so the same image tag, on every run (and in every worktree at once).
  }, 600_000);

  it('prints what it could not decide for a repo with no tests, exit 1', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ssr-init-')), 'no-tests');
    mkdirSync(dir);
    writeFileSync(join(dir, 'lib.py'), 'x = 1\n');
    execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
    execFileSync('git', ['-C', dir, 'add', '-A']);
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init']);
    const run = await runCli(['init', dir, '--repos', join(dirname(dir), 'repos.yaml'), '--sandbox', 'docker']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/could not decide \(nothing written to .*repos\.yaml\):\n {2}- tests: no test runner found/);
  }, 60_000);
});
