import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadReposFile } from '../../src/config/load-repos.js';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { silentProgress } from '../../src/util/progress.js';
import { createProvider, prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import type { Sandbox, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { ssrPath } from '../../src/util/ssr-home.js';

/** The repository root's repos.yaml. */
export const ROOT_REPOS_YAML = fileURLToPath(new URL('../../repos.yaml', import.meta.url));

/** The shared example repo: `pyledger` from the root repos.yaml. */
export async function exampleRepo(): Promise<ResolvedRepo> {
  return resolveRepo('pyledger', await loadReposFile(ROOT_REPOS_YAML));
}

/** The JavaScript examples `jskit` (node:test) and `tskit` (Vitest) from the root repos.yaml: the JS tests' shared images. */
export async function jsExampleRepos(): Promise<ResolvedRepo[]> {
  const repos = await loadReposFile(ROOT_REPOS_YAML);
  return Promise.all(['jskit', 'tskit'].map((id) => resolveRepo(id, repos)));
}

/** The second example repo: `pytext` from the root repos.yaml (the global setup does not build its image). */
export async function pytextRepo(): Promise<ResolvedRepo> {
  return resolveRepo('pytext', await loadReposFile(ROOT_REPOS_YAML));
}

/**
 * A tiny git repo (two commits, a module and its pytest tests) at a fixed path with fixed dates,
 * so its commit, and so its image tag, are the same on every run. Rebuilt only when missing.
 */
export async function tinyRepo(): Promise<ResolvedRepo> {
  const dir = ssrPath('test-repos', 'tiny');
  if (!existsSync(join(dir, '.git'))) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(join(dir, 'tests'), { recursive: true });
    const date = '2024-01-01T00:00:00Z';
    const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    const git = (...args: string[]): void => void execFileSync('git', ['-C', dir, ...args], { env, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    await writeFile(join(dir, 'calc.py'), 'def add(a, b):\n    return a + b\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'add');
    await writeFile(join(dir, 'tests', 'test_calc.py'), 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'test add');
  }
  return resolveRepo(dir, undefined);
}

export function dockerTemplate(repo: ResolvedRepo): Promise<SandboxTemplate> {
  return prepareTemplate(repo, 'docker', silentProgress);
}

export function bwrapTemplate(repo: ResolvedRepo): Promise<SandboxTemplate> {
  return prepareTemplate(repo, 'bwrap', silentProgress);
}

/** Acquire a sandbox from `template`, run `fn`, and always dispose of it. */
export async function withSandbox<T>(template: SandboxTemplate, fn: (sandbox: Sandbox) => Promise<T>): Promise<T> {
  const sandbox = await createProvider(template.backend).acquire(template);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.dispose();
  }
}
