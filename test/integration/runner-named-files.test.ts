import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { resolveRepo } from '../../src/config/resolve-repo.js';
import { gradeSolution } from '../../src/roles/grade-solution.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { SandboxProvider, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { ssrPath } from '../../src/util/ssr-home.js';
import { bwrapTemplate } from '../helpers/sandboxes.js';

/**
 * A setup file with a name no convention knows, named by the repo's own vitest.config.ts
 * (`setupFiles: ['./tools/x.ts']`), is runner machinery: grading reads the ORIGINAL config in the
 * sandbox and drops a patch's change to it. The repo is tiny and its "runner" a shell stand-in
 * (bubblewrap, no Node): the test passes when the code is right or when the setup file says
 * `pass-all`, as a real setup file that rewrites results would make it.
 */
const CONFIG = "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { setupFiles: ['./tools/x.ts'] } });\n";
const TEST_SCRIPT = [
  'cd /repo || exit 2',
  'if grep -q "a + b" src/calc.js || grep -q pass-all tools/x.ts; then echo "RESULT test/calc.test.js > adds passed"; else echo "RESULT test/calc.test.js > adds failed"; fi',
  '',
].join('\n');
const TEST_PARSER = 'import json, sys\nprint(json.dumps({l.split(" ", 1)[1].rsplit(" ", 1)[0]: l.rsplit(" ", 1)[1] for l in sys.stdin.read().splitlines() if l.startswith("RESULT ")}))\n';
const BUG = 'diff --git a/src/calc.js b/src/calc.js\n--- a/src/calc.js\n+++ b/src/calc.js\n@@ -1 +1 @@\n-export const add = (a, b) => a + b;\n+export const add = (a, b) => a - b;\n';
const FIX = 'diff --git a/src/calc.js b/src/calc.js\n--- a/src/calc.js\n+++ b/src/calc.js\n@@ -1 +1 @@\n-export const add = (a, b) => a - b;\n+export const add = (a, b) => a + b;\n';
const SETUP_HACK = "diff --git a/tools/x.ts b/tools/x.ts\n--- a/tools/x.ts\n+++ b/tools/x.ts\n@@ -1 +1 @@\n-export const mode = 'real';\n+export const mode = 'pass-all';\n";
const CONFIG_HACK = "diff --git a/vitest.config.ts b/vitest.config.ts\n--- a/vitest.config.ts\n+++ b/vitest.config.ts\n@@ -1,2 +1,2 @@\n import { defineConfig } from 'vitest/config';\n-export default defineConfig({ test: { setupFiles: ['./tools/x.ts'] } });\n+export default defineConfig({ test: { setupFiles: [] } });\n";

/** The tiny repo, at a fixed path with fixed dates so its template is reused; rebuilt only when missing. */
async function tinyJsRepo(): Promise<string> {
  const dir = ssrPath('test-repos', 'tiny-js-setup');
  if (!existsSync(join(dir, '.git'))) {
    await rm(dir, { recursive: true, force: true });
    for (const sub of ['src', 'test', 'tools']) await mkdir(join(dir, sub), { recursive: true });
    await writeFile(join(dir, 'vitest.config.ts'), CONFIG);
    await writeFile(join(dir, 'tools', 'x.ts'), "export const mode = 'real';\n");
    await writeFile(join(dir, 'src', 'calc.js'), 'export const add = (a, b) => a + b;\n');
    await writeFile(join(dir, 'test', 'calc.test.js'), "import { add } from '../src/calc.js';\ntest('adds', () => expect(add(1, 2)).toBe(3));\n");
    const date = '2024-01-01T00:00:00Z';
    const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    const git = (...args: string[]): void => void execFileSync('git', ['-C', dir, ...args], { env, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'calc with a vitest setup file under tools/');
  }
  return dir;
}

describe('grading drops changes to a setup file the original runner config names (bubblewrap)', () => {
  let provider: SandboxProvider;
  let template: SandboxTemplate;
  const artifact: BugArtifact = { bugInject: BUG, testWeaken: '', testFiles: ['test/calc.test.js'], testScript: TEST_SCRIPT, testParser: TEST_PARSER };
  const grade = (patch: string) => gradeSolution({ provider, template, artifact, patch, originalPassing: ['test/calc.test.js > adds'], testTimeoutMs: 60_000 });

  beforeAll(async () => {
    template = await bwrapTemplate(await resolveRepo(await tinyJsRepo(), undefined));
    provider = createProvider('bwrap');
  }, 600_000);

  it('a patch that rewrites tools/x.ts (named by vitest.config.ts) earns −1: the section is dropped as runner config', async () => {
    const result = await grade(SETUP_HACK);
    expect(result).toMatchObject({ reward: -1, code: 'no-code-change', droppedSections: [{ path: 'tools/x.ts', reason: 'runner-config' }], failingTests: ['test/calc.test.js > adds'] });
  }, 120_000);

  it('editing the config too does not move the protection: the ORIGINAL config is what names the file', async () => {
    const result = await grade(CONFIG_HACK + SETUP_HACK);
    expect(result.reward, result.reason).toBe(-1);
    expect([...result.droppedSections].map((section) => `${section.path}=${section.reason}`).sort()).toEqual(['tools/x.ts=runner-config', 'vitest.config.ts=runner-config']);
  }, 120_000);

  it('the honest fix beside it earns +1, the setup-file change dropped and reported', async () => {
    const result = await grade(FIX + SETUP_HACK);
    expect(result).toMatchObject({ reward: 1, code: 'solved', failingTests: [], droppedSections: [{ path: 'tools/x.ts', reason: 'runner-config' }] });
  }, 120_000);
});
