import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReposFile } from '../../src/config/load-repos.js';
import { imageRecipeSchema } from '../../src/config/repos-schema.js';
import { resolveRepo } from '../../src/config/resolve-repo.js';
import { initResultSchema } from '../../src/onboarding/init-result.js';
import { runInit } from '../../src/onboarding/run-init.js';
import { dockerClient } from '../../src/sandbox/docker/docker-client.js';
import { repoImageTag } from '../../src/sandbox/docker/repo-image.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import { silentProgress } from '../../src/util/progress.js';
import { runCli } from '../helpers/cli.js';

// `ssr init` on JavaScript repos, end to end: real detection, real image builds (Debian's Node
// and npm, npm ci), the real golden gate in Docker. A cold machine builds the Node rootfs first.
const EXAMPLES = join(dirname(new URL(import.meta.url).pathname), '..', '..', 'examples');
const removeImage = (tag: string | undefined) => (tag ? dockerClient().getImage(tag).remove({ force: true }).catch(() => undefined) : undefined);

/** A committed git repo in tmp holding `files`. */
function gitRepo(name: string, files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ssr-init-js-')), name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  commitAll(dir);
  return dir;
}

function commitAll(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
}

const EMPTY_LOCK = (name: string) => JSON.stringify({ name, version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name, version: '1.0.0' } } });
const nodeTestRepo = (name: string, tests: string, more: Record<string, string> = {}) =>
  gitRepo(name, {
    'package.json': JSON.stringify({ name, version: '1.0.0', private: true, scripts: { test: 'node --test' } }),
    'package-lock.json': EMPTY_LOCK(name),
    'src/add.mjs': 'export const add = (a, b) => a + b;\n',
    'test/add.test.mjs': tests,
    ...more,
  });

describe('ssr init on JavaScript repos', () => {
  it('onboards the jskit example: node-test, npm ci, two clean runs, an entry that loads and names the same image', async () => {
    const repo = join(mkdtempSync(join(tmpdir(), 'ssr-init-js-')), 'jskit');
    execFileSync('git', ['clone', '-q', join(EXAMPLES, 'jskit.bundle'), repo]);
    const reposFile = join(dirname(repo), 'repos.yaml');
    // A loaded shared machine can take minutes for the 33 tests: the limit is set wide, as a user would for a slow host.
    const run = await runCli(['init', repo, '--repos', reposFile, '--sandbox', 'docker', '--test-timeout', '900', '--json']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = initResultSchema.parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({ status: 'written', id: 'jskit', language: { language: 'javascript' }, runner: { runner: 'node-test', testRunner: 'node-test', supported: true }, undecided: [] });
    expect(result.runner!.evidence).toContain('package.json scripts.test: node --test');
    expect(result.gate).toMatchObject({ status: 'passed', tests: 33, quarantined: [] });
    expect(result.cleanSuite).toEqual({ passed: 33, failed: 0 });
    const loaded = await loadReposFile(reposFile);
    expect(loaded.file.repos[0]).toMatchObject({ id: 'jskit', source: { path: 'jskit', commit: result.commit }, image: { setup: [{ npm: 'ci' }] }, test: { runner: 'node-test' } });
    expect(loaded.file.repos[0]!.limits.test_timeout_s).toBeGreaterThanOrEqual(900);
    expect(readFileSync(reposFile, 'utf8')).toContain('# jskit: written by ssr init: javascript, node-test (package.json scripts.test: node --test');
    // What selfplay builds from the entry is the very image the gate ran in.
    expect(result.gate!.image).toBe(repoImageTag(await resolveRepo('jskit', loaded)));
    // Not removed: the clone's commit and recipe are the example's, so this is the jskit image every test shares (image tags name content).
  }, 1_500_000);

  it('refuses a suite that needs the network at test time and a package the image lacks, naming both', async () => {
    const dir = nodeTestRepo(
      'needs-net',
      "import test from 'node:test';\nimport assert from 'node:assert';\nimport http from 'node:http';\n\n" +
        "test('reads the registry', async () => {\n  const res = await new Promise((resolve, reject) => http.get('http://registry.npmjs.org/', resolve).on('error', reject));\n  assert.equal(res.statusCode, 200);\n});\n",
      // Not in package.json: the gate must name the package, not only the runner's summary line.
      { 'test/pad.test.mjs': "import test from 'node:test';\nimport leftPad from 'left-pad';\n\ntest('pads', () => leftPad('1', 2));\n" },
    );
    const result = await runInit({ path: dir, reposFile: join(dirname(dir), 'repos.yaml'), backend: 'docker', dryRun: true, progress: silentProgress });
    try {
      expect(result.runner).toMatchObject({ runner: 'node-test' });
      expect(result.status).toBe('undecided');
      expect(result.gate).toMatchObject({ status: 'refused' });
      const reason = result.gate!.status === 'refused' ? result.gate!.reason : '';
      expect(reason).toMatch(/the clean test suite fails: 0 of 2 tests pass/);
      expect(reason).toMatch(/its log shows a test reaching the network \(getaddrinfo (EAI_AGAIN|ENOTFOUND) registry\.npmjs\.org\), and sandboxes run tests without network/);
      expect(reason).toMatch(/its log shows "Cannot find package 'left-pad' imported from": the image lacks the npm package left-pad: list it in package\.json's dependencies/);
      expect(result.undecided).toEqual([{ field: 'image.setup', why: reason }]);
    } finally {
      await removeImage(result.gate?.image);
    }
  }, 600_000);

  it('names the native module that does not build at npm ci, and the fix', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ssr-init-js-')), 'native');
    const dep = join(dirname(dir), 'native-thing');
    mkdirSync(dep, { recursive: true });
    mkdirSync(dir);
    writeFileSync(join(dep, 'package.json'), JSON.stringify({ name: 'native-thing', version: '1.0.0', main: 'index.js' }));
    writeFileSync(join(dep, 'binding.gyp'), JSON.stringify({ targets: [{ target_name: 'native_thing', sources: ['native.c'] }] }));
    writeFileSync(join(dep, 'native.c'), '#error "ssr test: this native module does not build"\n');
    execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: dep, stdio: 'pipe' });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'native', version: '1.0.0', private: true, scripts: { test: 'node --test' }, dependencies: { 'native-thing': 'file:native-thing-1.0.0.tgz' } }));
    execFileSync('npm', ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'pipe' });
    writeFileSync(join(dir, 'add.test.mjs'), "import test from 'node:test';\ntest('adds', () => {});\n");
    commitAll(dir);
    const result = await runInit({ path: dir, reposFile: join(dirname(dir), 'repos.yaml'), backend: 'docker', dryRun: true, progress: silentProgress });
    expect(result.status).toBe('undecided');
    expect(result.undecided).toHaveLength(1);
    expect(result.undecided[0]).toMatchObject({ field: 'image.setup' });
    expect(result.undecided[0]!.why).toMatch(/setup step `npm: ci` exited with \d+\nthe native module native-thing did not build at npm ci \(`node-gyp rebuild`.*image\.packages in repos\.yaml \(build-essential.*\{ npm: "ci --ignore-scripts" \}/s);
  }, 600_000);

  it('refuses to build the image of a JS repo without a lockfile, naming npm install --package-lock-only', async () => {
    const dir = gitRepo('unlocked', { 'package.json': JSON.stringify({ name: 'unlocked', version: '1.0.0', scripts: { test: 'node --test' } }), 'a.test.mjs': '' });
    const repo = { ...(await resolveRepo(dir, undefined)), image: imageRecipeSchema.parse({ setup: [{ npm: 'ci' }] }), testRunner: 'node-test' as const };
    await expect(prepareTemplate(repo, 'docker', silentProgress)).rejects.toThrow(/no package-lock\.json \(or npm-shrinkwrap\.json\).*npm install --package-lock-only/s);
  }, 600_000);
});
