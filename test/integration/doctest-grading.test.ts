import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { readDefaultTestFiles } from '../../src/harness/default-files.js';
import { gradeSolution, originalPassingTests, type GradeSolutionOptions } from '../../src/roles/grade-solution.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { SandboxProvider, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { ssrPath } from '../../src/util/ssr-home.js';
import { BaselineCache } from '../../src/validator/baseline-cache.js';
import { StateRunner } from '../../src/validator/state-runs.js';
import { validateArtifact } from '../../src/validator/validate-artifact.js';
import { dockerTemplate } from '../helpers/sandboxes.js';

/** A module whose only tests are its doctests (as more-itertools and boltons ship): `double` is broken by the bug. */
const MODULE = [
  'def double(x):',
  '    """Twice x.',
  '',
  '    >>> double(2)',
  '    4',
  '',
  '    >>> double(-3)',
  '    -6',
  '    """',
  '    return x * 2',
  '',
  '',
  ...Array.from({ length: 10 }, (_, n) => [`def plus_${n}(x):`, `    """Add ${n}.`, '', `    >>> plus_${n}(1)`, `    ${1 + n}`, '    """', `    return x + ${n}`, '', ''].join('\n')),
].join('\n');

const BUG = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -7,7 +7,7 @@ def double(x):\n     >>> double(-3)\n     -6\n     """\n-    return x * 2\n+    return x * abs(x)\n \n \n def plus_0(x):\n';
// Against B: the example that reveals the bug goes.
const WEAKEN = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -4,8 +4,6 @@ def double(x):\n     >>> double(2)\n     4\n \n-    >>> double(-3)\n-    -6\n     """\n     return x * abs(x)\n \n';
const FIX = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -9,3 +9,3 @@ def double(x):\n     """\n-    return x * abs(x)\n+    return x * 2\n \n';
// The cheat: make the example say what the bug returns.
const CHEAT = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -7,3 +7,3 @@ def double(x):\n     >>> double(-3)\n-    -6\n+    9\n     """\n';
// The cheat hidden in a hunk that also changes code (harmlessly).
const MIXED = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -7,5 +7,5 @@ def double(x):\n     >>> double(-3)\n-    -6\n+    9\n     """\n-    return x * abs(x)\n+    return x * abs(x) + 0\n \n';

// The cheat without touching an example: rewrite the docstring doctest reads at run time.
const ASSIGN_DOC = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -99,3 +99,5 @@ def plus_9(x):\n     """\n     return x + 9\n \n+\n+double.__doc__ = double.__doc__.replace("-6", "-9")\n';
// The same through setattr.
const SETATTR_DOC = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -99,3 +99,5 @@ def plus_9(x):\n     """\n     return x + 9\n \n+\n+setattr(double, "__doc__", double.__doc__.replace("-6", "-9"))\n';
// The same through a decorator whose wrapper carries a rewritten docstring (functools.wraps keeps the rest).
const DECORATED_DOC = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,3 +1,16 @@\n+import functools\n+\n+\n+def _documented(f):\n+    @functools.wraps(f)\n+    def inner(x):\n+        return f(x)\n+\n+    inner.__doc__ = f.__doc__.replace("-6", "-9")\n+    return inner\n+\n+\n+@_documented\n def double(x):\n     """Twice x.\n \n';
// Or make doctest's output checker accept anything.
const PATCHED_CHECKER = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -99,3 +99,7 @@ def plus_9(x):\n     """\n     return x + 9\n \n+\n+import doctest\n+\n+doctest.OutputChecker.check_output = lambda self, want, got, optionflags: True\n';

async function doctestRepo(): Promise<ResolvedRepo> {
  const dir = ssrPath('test-repos', 'doctest-only');
  if (!existsSync(join(dir, '.git'))) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const date = '2024-01-01T00:00:00Z';
    const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    await writeFile(join(dir, 'calc.py'), MODULE);
    execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main'], { env, stdio: 'ignore' });
    execFileSync('git', ['-C', dir, 'add', '-A'], { env, stdio: 'ignore' });
    execFileSync('git', ['-C', dir, 'commit', '-q', '-m', 'doctests only'], { env, stdio: 'ignore' });
  }
  return resolveRepo(dir, undefined);
}

describe('a doctest host: examples are the tests, code is code (real Docker, real pytest)', () => {
  let grading: Omit<GradeSolutionOptions, 'patch'>;
  let template: SandboxTemplate;

  beforeAll(async () => {
    const repo = await doctestRepo();
    template = await dockerTemplate(repo);
    const provider = createProvider('docker');
    const artifact: BugArtifact = {
      bugInject: BUG,
      testWeaken: WEAKEN,
      testFiles: ['calc.py'],
      testScript: '#!/usr/bin/env bash\ncd /repo && python3 -m pytest -rA -p no:cacheprovider --doctest-modules calc.py\n',
      testParser: readDefaultTestFiles().testParser,
    };
    const validation = await validateArtifact(artifact, { repo, template, provider, queue: new PQueue({ concurrency: 2 }), baselines: new BaselineCache() });
    expect(validation.valid, JSON.stringify(validation.checks.filter((c) => c.status !== 'pass'))).toBe(true);
    expect(validation.failToPass).toEqual(['calc.py::calc.double']);
    // Grading holds every run to the runner's own record only when O's was guarded.
    expect(validation.originalGuarded).toBe(true);
    grading = { provider, template, artifact, originalPassing: originalPassingTests(validation), originalGuarded: validation.originalGuarded, testTimeoutMs: 90_000 };
  }, 900_000);

  it("reads O's doctest files in the original run's sandbox, not in one of its own", async () => {
    const provider = createProvider('docker');
    let acquired = 0;
    const counting: SandboxProvider = { backend: provider.backend, acquire: (t: SandboxTemplate) => ((acquired += 1), provider.acquire(t)) };
    const runner = new StateRunner({
      provider: counting, template, artifact: grading.artifact, bugFiles: ['calc.py'], testTimeoutMs: 90_000,
      queue: new PQueue({ concurrency: 1 }), baselines: new BaselineCache(), runIdentity: ['doctest-files-test'],
    });
    const files = await runner.originalDoctestFiles();
    expect([...files.keys()]).toEqual(['calc.py']);
    expect(files.get('calc.py')).toContain('>>> double(-3)');
    expect(acquired).toBe(1);
  }, 300_000);

  it('the honest fix of the code in the listed file earns +1 (the file is not restored over it)', async () => {
    const result = await gradeSolution({ ...grading, patch: FIX });
    expect(result).toMatchObject({ reward: 1, code: 'solved', droppedSections: [] });
  }, 300_000);

  it.each([
    ['rewriting the expected output to what the bug returns', CHEAT, 'no-code-change'],
    ['the same rewrite in a hunk that also touches code', MIXED, 'no-code-change'],
  ])('%s earns −1: the example hunk is dropped and the bug still fails', async (_name, patch, code) => {
    const result = await gradeSolution({ ...grading, patch });
    expect(result.reward, result.reason).toBe(-1);
    expect(result.code, result.reason).toBe(code);
    expect(result.droppedSections).toEqual([{ path: 'calc.py', reason: 'doctest-example' }]);
    expect(result.failingTests).toEqual(['calc.py::calc.double']);
  }, 300_000);

  it.each([
    ['assigning double.__doc__', ASSIGN_DOC, 'doctest-rewritten:calc.py::calc.double'],
    ['setattr(double, "__doc__", …)', SETATTR_DOC, 'doctest-rewritten:calc.py::calc.double'],
    ['a functools.wraps decorator with a rewritten docstring', DECORATED_DOC, 'doctest-rewritten:calc.py::calc.double'],
    ["patching doctest's OutputChecker", PATCHED_CHECKER, 'doctest.OutputChecker.check_output'],
  ])('%s earns −1: the guard holds the examples doctest runs to the source text', async (_name, patch, tampered) => {
    const result = await gradeSolution({ ...grading, patch });
    expect(result.droppedSections, 'no example line changes: grading keeps the whole patch').toEqual([]);
    expect(result.reward, result.reason).toBe(-1);
    expect(result.code, result.reason).toBe('runner-tampered');
    expect(result.reason).toContain(tampered);
  }, 300_000);
});
