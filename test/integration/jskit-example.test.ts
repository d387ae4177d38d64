import { beforeAll, describe, expect, it } from 'vitest';
import { loadReposFile } from '../../src/config/load-repos.js';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { readJsTestFiles } from '../../src/harness/js-test-files.js';
import { runTests } from '../../src/harness/run-tests.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { dockerTemplate, ROOT_REPOS_YAML, withSandbox } from '../helpers/sandboxes.js';

// The JavaScript example repo (examples/README.md): its image builds from repos.yaml (Debian's
// nodejs and npm, `npm ci` from its lockfile) and its whole node:test suite passes in a sandbox
// (--network none) with the node:test script and the TAP parser.
describe('the jskit example repo', () => {
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  beforeAll(async () => {
    repo = await resolveRepo('jskit', await loadReposFile(ROOT_REPOS_YAML));
    template = await dockerTemplate(repo);
    // A cold machine debootstraps the Node rootfs and installs npm's ~200 Debian packages here (minutes).
  }, 1_500_000);

  it('passes every test of its node:test suite, one id per test: file > describe > test', async () => {
    const report = await withSandbox(template, (sandbox) =>
      runTests(sandbox, { ...readJsTestFiles('node-test'), timeoutMs: repo.limits.test_timeout_s * 1000 }),
    );
    expect(report.parserFailure).toBeUndefined();
    expect(report.timedOut).toBe(false);
    expect(report.exitCode).toBe(0);
    expect(Object.entries(report.statuses).filter(([, status]) => status !== 'passed')).toEqual([]);
    const ids = Object.keys(report.statuses);
    expect(ids).toHaveLength(33);
    expect(new Set(ids.map((id) => id.split(' > ')[0]))).toEqual(new Set(['async', 'collections', 'settings', 'strings'].map((name) => `test/${name}.test.mjs`)));
    expect(ids).toContain('test/collections.test.mjs > chunk > keeps a shorter last chunk');
    // highlight() imports escape-string-regexp: it passes only because npm ci baked it in.
    expect(report.statuses['test/strings.test.mjs > highlight > treats the word as literal text']).toBe('passed');
  });

  it('runs Debian Node 18 with the lockfile\'s dependency baked in, git-ignored, and no network', async () => {
    const probe = [
      'node --version',
      'node -p "require(\'./node_modules/escape-string-regexp/package.json\').version"',
      'git status --porcelain | wc -l',
      'node -e "require(\'http\').get(\'http://registry.npmjs.org\').on(\'error\', (e) => console.log(\'offline\', e.code))"',
    ].join('; ');
    const result = await withSandbox(template, (sandbox) => sandbox.exec(probe, { timeoutMs: 30_000 }));
    expect(result.exitCode).toBe(0);
    const [version, dependency, dirty, network] = result.output.trim().split('\n');
    expect(version).toMatch(/^v18\./);
    expect(dependency).toBe('5.0.0');
    expect(dirty).toBe('0');
    expect(network).toMatch(/^offline /);
  });
});
