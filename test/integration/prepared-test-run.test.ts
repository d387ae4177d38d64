import { beforeAll, describe, expect, it } from 'vitest';
import { readDefaultTestFiles } from '../../src/harness/default-files.js';
import { runPreparedTests, type PreparedRun } from '../../src/harness/run-tests.js';
import type { PrepareStep } from '../../src/harness/prepare-steps.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { bwrapTemplate, dockerTemplate, tinyRepo, withSandbox } from '../helpers/sandboxes.js';

/**
 * The test driver brings the sandbox to a state and runs the tests in one exec (the validator's
 * B, W and inverse states). The tiny repo: calc.py (`add`) and tests/test_calc.py (`test_add`).
 */
const defaults = readDefaultTestFiles();
const TEST = 'tests/test_calc.py::test_add';
const BUG = [
  'diff --git a/calc.py b/calc.py',
  '--- a/calc.py',
  '+++ b/calc.py',
  '@@ -1,2 +1,2 @@',
  ' def add(a, b):',
  '-    return a + b',
  '+    return a - b',
  '',
].join('\n');
const NEW_FILE = ['diff --git a/odd name.py b/odd name.py', 'new file mode 100644', '--- /dev/null', '+++ b/odd name.py', '@@ -0,0 +1 @@', '+X = 1', ''].join('\n');
// The script leaves a marker, so a test that it never ran is visible.
const script = `touch /ssr/script-ran\n${defaults.testScript}`;

for (const backend of ['docker', 'bwrap'] as const) {
  describe(`runPreparedTests (${backend}, tiny repo)`, () => {
    let template: SandboxTemplate;
    beforeAll(async () => {
      const repo = await tinyRepo();
      template = backend === 'docker' ? await dockerTemplate(repo) : await bwrapTemplate(repo);
    });
    const run = (steps: PrepareStep[], probe = 'true'): Promise<{ run: PreparedRun; probe: string }> =>
      withSandbox(template, async (sandbox) => {
        const result = await runPreparedTests(sandbox, steps, { ...defaults, testScript: script, timeoutMs: 60_000 });
        return { run: result, probe: (await sandbox.exec(probe)).output };
      });

    it('applies the diff, then runs the tests on the changed code', async () => {
      const { run: result, probe } = await run([{ apply: BUG, label: 'bug_inject.diff' }], 'grep -c "a - b" calc.py');
      expect(result.status).toBe('ran');
      if (result.status === 'ran') expect(result.run.statuses).toEqual({ [TEST]: 'failed' });
      expect(probe.trim()).toBe('1');
    });

    it('reverts a changed file to HEAD and deletes one HEAD never had, in order', async () => {
      const steps: PrepareStep[] = [
        { apply: BUG, label: 'bug_inject.diff' },
        { apply: NEW_FILE.replace(/\n$/, ''), label: 'extra' },
        { revert: 'calc.py' },
        { revert: '/repo/odd name.py' },
      ];
      const { run: result, probe } = await run(steps, 'git status --porcelain; ls');
      expect(result.status).toBe('ran');
      if (result.status === 'ran') expect(result.run.statuses).toEqual({ [TEST]: 'passed' });
      expect(probe).not.toContain('odd name.py');
      expect(probe).not.toMatch(/^ M /m);
    });

    it('stops at a diff that does not apply exactly: names the step, keeps git\'s reason, runs no test', async () => {
      const stale = BUG.replace('-    return a + b', '-    return a * b');
      const { run: result, probe } = await run([{ apply: NEW_FILE, label: 'first' }, { apply: stale, label: 'bug_inject.diff' }], 'ls /ssr; ls');
      expect(result.status).toBe('prepare-failed');
      if (result.status === 'prepare-failed') {
        expect(result.failure.step).toBe(1);
        expect(result.failure.exitCode).not.toBe(0);
        expect(result.failure.output).toMatch(/patch does not apply|patch failed/);
      }
      expect(probe).not.toContain('script-ran');
      expect(probe).toContain('odd name.py'); // the first step stays applied
    });

    it('treats an empty diff as applied', async () => {
      const { run: result } = await run([{ apply: '', label: 'test_weaken.diff' }]);
      expect(result.status).toBe('ran');
    });
  });
}
