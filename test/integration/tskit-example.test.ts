import { beforeAll, describe, expect, it } from 'vitest';
import { loadReposFile } from '../../src/config/load-repos.js';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { repoTestFiles } from '../../src/harness/repo-test-files.js';
import { runTests } from '../../src/harness/run-tests.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { dockerTemplate, ROOT_REPOS_YAML, withSandbox } from '../helpers/sandboxes.js';

// The TypeScript example repo (examples/README.md): its image builds from repos.yaml (Debian's
// nodejs and npm, `npm ci` of Vitest 2 from its lockfile) and its whole Vitest suite, written in
// TypeScript, passes on Debian's Node 18 in a sandbox (--network none) with the vitest script and
// the Jest-shaped JSON parser, one id per test.
describe('the tskit example repo', () => {
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  beforeAll(async () => {
    repo = await resolveRepo('tskit', await loadReposFile(ROOT_REPOS_YAML));
    template = await dockerTemplate(repo);
    // A cold machine debootstraps the Node rootfs and installs npm's Debian packages here (minutes).
  }, 1_500_000);

  it('passes every test of its Vitest suite, one id per test: file > describe > test', async () => {
    expect(repo.testRunner).toBe('vitest');
    const report = await withSandbox(template, (sandbox) => runTests(sandbox, { ...repoTestFiles(repo), timeoutMs: repo.limits.test_timeout_s * 1000 }));
    expect(report.parserFailure).toBeUndefined();
    expect(report.timedOut).toBe(false);
    expect(report.exitCode).toBe(0);
    expect(Object.entries(report.statuses).filter(([, status]) => status !== 'passed')).toEqual([]);
    const ids = Object.keys(report.statuses);
    expect(ids).toHaveLength(110);
    const files = ['duration', 'emitter', 'lru-cache', 'query-string', 'range', 'semver'].map((name) => `test/${name}.test.ts`);
    expect(new Set(ids.map((id) => id.split(' > ')[0]))).toEqual(new Set(files));
    // The regression tests of the history's fix and edge-case commits, by their exact ids.
    expect(ids).toEqual(
      expect.arrayContaining([
        'test/semver.test.ts > compare > sorts pre-releases the way semver.org lists them',
        'test/duration.test.ts > parseDuration > refuses an empty duration with an example',
        'test/emitter.test.ts > Emitter > does not skip the listener after a once listener',
        'test/lru-cache.test.ts > LruCache > get() makes an entry the most recently used',
        'test/query-string.test.ts > withQuery > merges parameters into the URL and keeps the fragment',
      ]),
    );
  }, 660_000); // Vitest's start (Vite, esbuild) takes minutes on a loaded 1-CPU sandbox; the run has its own limit

  it('runs Debian Node 18 with Vitest 2 baked in, git-ignored, and no network', async () => {
    const probe = [
      'node --version',
      'node -p "require(\'./node_modules/vitest/package.json\').version"',
      'git status --porcelain | wc -l',
      'git ls-files "src/*.ts" | wc -l',
      'node -e "require(\'http\').get(\'http://registry.npmjs.org\').on(\'error\', (e) => console.log(\'offline\', e.code))"',
    ].join('; ');
    const result = await withSandbox(template, (sandbox) => sandbox.exec(probe, { timeoutMs: 30_000 }));
    expect(result.exitCode).toBe(0);
    const [version, vitest, dirty, sources, network] = result.output.trim().split('\n');
    expect(version).toMatch(/^v18\./);
    expect(vitest).toBe('2.1.9');
    expect(dirty).toBe('0');
    expect(sources).toBe('6');
    expect(network).toMatch(/^offline /);
  });
});
