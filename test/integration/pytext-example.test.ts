import { beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedRepo } from '../../src/config/resolve-repo.js';
import { readDefaultTestFiles } from '../../src/harness/default-files.js';
import { runTests } from '../../src/harness/run-tests.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { dockerTemplate, pytextRepo, withSandbox } from '../helpers/sandboxes.js';

// The second example repo (examples/README.md): its image builds from repos.yaml and its whole
// suite passes in a sandbox with the default pytest script and parser.
describe('the pytext example repo', () => {
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  beforeAll(async () => {
    repo = await pytextRepo();
    template = await dockerTemplate(repo);
  });

  it('passes every test of its suite in a Docker sandbox, with shell-safe test ids', async () => {
    const report = await withSandbox(template, (sandbox) =>
      runTests(sandbox, { ...readDefaultTestFiles(), timeoutMs: repo.limits.test_timeout_s * 1000 }),
    );
    expect(report.parserFailure).toBeUndefined();
    expect(report.timedOut).toBe(false);
    expect(report.exitCode).toBe(0);
    const ids = Object.keys(report.statuses);
    expect(ids.length).toBeGreaterThanOrEqual(120);
    expect(Object.entries(report.statuses).filter(([, status]) => status !== 'passed')).toEqual([]);
    // Every module's tests ran, and tests/conftest.py's id hook took effect under the image's pytest.
    const files = new Set(ids.map((id) => id.split('::')[0]));
    expect([...files].sort()).toEqual(
      ['distance', 'ini', 'linediff', 'roman', 'slug', 'template', 'tokens', 'wrap'].map((name) => `tests/test_${name}.py`),
    );
    expect(ids.filter((id) => !/^tests\/test_\w+\.py::\w+(\[[\w.-]+\])?$/.test(id))).toEqual([]);
  });
});
