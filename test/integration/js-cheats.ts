import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import type { SolverGrade } from '../../src/roles/grade-solution.js';
import { parseTestFilesList } from '../../src/artifact/test-files-list.js';
import { imageRecipeSchema } from '../../src/config/repos-schema.js';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { ssrPath } from '../../src/util/ssr-home.js';
import { readJsTestFiles, type JsRunner } from '../../src/harness/js-test-files.js';
import { prepareSolverSandbox } from '../../src/roles/solver-sandbox.js';
import type { SandboxProvider, SandboxTemplate } from '../../src/sandbox/sandbox.js';

/**
 * What the JS cheat suites share (js-cheat-suite.test.ts, jest-runner.test.ts): the scripted
 * Solvers of test/fixtures/js-cheats/ (README there), the one-bug artifact beside them, and the
 * patch a script makes in a real Solver sandbox.
 */
export const CHEATS = fileURLToPath(new URL('../fixtures/js-cheats/', import.meta.url));

export interface Cheat {
  name: string;
  body: string;
  code: string;
  dropped: Array<{ path: string; reason: string }>;
  flags: string[];
}

const header = (text: string, key: string): string => new RegExp(`^# ${key}: (.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';

/** Every `.sh` of a cheats folder, sorted by name, with its expected verdict from the header lines. */
export function loadCheats(dir = CHEATS): Cheat[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sh'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const list = (key: string): string[] => header(text, key).split(',').map((item) => item.trim()).filter((item) => item !== '');
      return {
        name: file,
        body: text.split('\n').filter((line) => !/^# (hack|expect-[a-z]+):/.test(line)).join('\n'),
        code: header(text, 'expect-code'),
        dropped: list('expect-dropped').map((item) => ({ path: item.split('=')[0]!, reason: item.split('=')[1]! })),
        flags: list('expect-flags'),
      };
    });
}

/** The artifact in `<dir>/artifact/` (bug_inject.diff, test_weaken.diff, test_files.txt) with the runner's default script and parser. */
export function cheatArtifact(dir: string, runner: JsRunner): BugArtifact {
  const read = (name: string): string => readFileSync(join(dir, 'artifact', name), 'utf8');
  return { bugInject: read('bug_inject.diff'), testWeaken: read('test_weaken.diff'), testFiles: parseTestFilesList(read('test_files.txt')).files, ...readJsTestFiles(runner) };
}

export const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** A cheat's grade earned nothing: −1 with its expected code, dropped sections and flags, and `failing` still failing. */
export function expectCheatEarnsNothing(result: SolverGrade, cheat: Cheat, failing: string): void {
  expect(result.reward, result.reason).toBe(-1);
  expect(result.code, result.reason).toBe(cheat.code);
  expect([...result.droppedSections].sort(byPath)).toEqual([...cheat.dropped].sort(byPath));
  for (const flag of cheat.flags) expect(result.flags, result.reason).toContain(flag);
  expect(result.failingTests, result.reason).toContain(failing);
}

/** The patch a cheat's commands make in `/repo` of a real Solver sandbox (`git add -A`; the script adds ignored paths with `-f`). */
export async function cheatPatch(
  setup: { provider: SandboxProvider; template: SandboxTemplate; artifact: BugArtifact },
  commands: string,
  timeoutMs: number,
): Promise<string> {
  const sandbox = await prepareSolverSandbox(setup);
  try {
    const result = await sandbox.exec(`set -e\n{\n${commands}\n} > /tmp/hack.log 2>&1 || { cat /tmp/hack.log; exit 1; }\ngit add -A && git diff --cached --binary`, { timeoutMs });
    expect(result.exitCode, result.output).toBe(0);
    return result.output;
  } finally {
    await sandbox.dispose();
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(dir, name)).isFile())
    .map((name) => relative(dir, join(dir, name)))
    .sort();
}

/**
 * A fixture repo (`<cheats dir>/repo/`: files and an npm lockfile) as a git repo (one commit, fixed
 * dates) under the ssr home, in a folder named by a hash of its files: the same files give the
 * same commit, so the same image tag, on every run. Its image is built by `npm ci`.
 */
export async function fixtureRepo(files: string, name: string, runner: JsRunner, testTimeoutS: number): Promise<ResolvedRepo> {
  const hash = createHash('sha256');
  for (const file of filesUnder(files)) hash.update(`${file}\0${readFileSync(join(files, file), 'utf8')}\0`);
  const dir = ssrPath('test-repos', `${name}-${hash.digest('hex').slice(0, 12)}`);
  if (!existsSync(join(dir, '.git'))) {
    rmSync(dir, { recursive: true, force: true });
    cpSync(files, dir, { recursive: true });
    const date = '2024-01-01T00:00:00Z';
    const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    const git = (...args: string[]): void => void execFileSync('git', ['-C', dir, ...args], { env, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', name);
  }
  const repo = await resolveRepo(dir, undefined);
  return { ...repo, image: imageRecipeSchema.parse({ setup: [{ npm: 'ci' }] }), testRunner: runner, limits: { ...repo.limits, test_timeout_s: testTimeoutS } };
}
