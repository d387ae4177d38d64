import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../../../src/code/unified-diff.js';
import { MAX_PATCH_BYTES, sanitizePatch } from '../../../../src/roles/grading/sanitize-patch.js';

const TESTS = ['tests/test_money.py'];
const section = (path: string): string => `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;
const added = (path: string, mode = '100644'): string => `diff --git a/${path} b/${path}\nnew file mode ${mode}\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+x\n`;
const symlink = (path: string, target: string): string =>
  `diff --git a/${path} b/${path}\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${target}\n\\ No newline at end of file\n`;
const CODE = section('pyledger/money.py');

describe('sanitizePatch: which sections count', () => {
  it.each<[string, string, string]>([
    ['an oracle test file', section('tests/test_money.py'), 'oracle-test-file'],
    ['another test file', section('tests/test_ledger.py'), 'test-file'],
    ['a test module outside tests/', added('pyledger/test_hack.py'), 'test-file'],
    ['conftest.py at the root', added('conftest.py'), 'runner-config'],
    ['conftest.py in a package', added('pyledger/conftest.py'), 'runner-config'],
    ['pytest.ini', added('pytest.ini'), 'runner-config'],
    ['tox.ini', added('tox.ini'), 'runner-config'],
    ['setup.cfg', added('setup.cfg'), 'runner-config'],
    ['pyproject.toml', section('pyproject.toml'), 'runner-config'],
    ['.coveragerc', added('.coveragerc'), 'runner-config'],
    ['a test package __init__.py', added('tests/__init__.py'), 'runner-config'],
    ['sitecustomize.py', added('sitecustomize.py'), 'startup-hook'],
    ['usercustomize.py in src/', added('src/usercustomize.py'), 'startup-hook'],
    ['a .pth file', added('pyledger.pth'), 'startup-hook'],
    ['pytest.py at the root', added('pytest.py'), 'shadows-module'],
    ['a _pytest package', added('_pytest/__init__.py'), 'shadows-module'],
    ['pluggy.py', added('pluggy.py'), 'shadows-module'],
    ['a stdlib module (unittest.py)', added('unittest.py'), 'shadows-module'],
    ['a stdlib package in src/ (json/__init__.py)', added('src/json/__init__.py'), 'shadows-module'],
    ['a pytest plugin name', added('pytest_hacks.py'), 'shadows-module'],
    ['a path with ..', section('../etc/profile.py'), 'outside-repo'],
    ['git metadata', added('.git/hooks/pre-commit.py'), 'outside-repo'],
    ['an absolute path', 'diff --git a//etc/x.py b//etc/x.py\nnew file mode 100644\n--- /dev/null\n+++ b//etc/x.py\n@@ -0,0 +1 @@\n+x\n', 'outside-repo'],
    ['a symlink out of the repo', symlink('pyledger/ext.py', '/usr/lib/python3/dist-packages/_pytest/runner.py'), 'symlink'],
    ['a symlink at a test file', symlink('pyledger/t.py', '../tests/test_money.py'), 'symlink'],
    ['a symlink at ..', symlink('../x.py', 'y'), 'outside-repo'],
    ['a README', section('README.md'), 'non-code'],
    ['a data file', added('pyledger/rates.json'), 'non-code'],
    // JavaScript / TypeScript runners (issue 16): configs that change collection, setup files and
    // reporters that rewrite results, the runner's own files, and the package's fields.
    ['jest.config.js', added('jest.config.js'), 'runner-config'],
    ['jest.config.ts', section('jest.config.ts'), 'runner-config'],
    ['vitest.config.mts', added('vitest.config.mts'), 'runner-config'],
    ['vite.config.js', section('vite.config.js'), 'runner-config'],
    ['vitest.workspace.ts', added('vitest.workspace.ts'), 'runner-config'],
    ['.mocharc.yml', added('.mocharc.yml'), 'runner-config'],
    ['.mocharc.cjs', added('.mocharc.cjs'), 'runner-config'],
    ['.taprc', added('.taprc'), 'runner-config'],
    ['babel.config.js (transforms the test files)', added('babel.config.js'), 'runner-config'],
    ['.babelrc', section('.babelrc'), 'runner-config'],
    ['tsconfig.json', section('tsconfig.json'), 'runner-config'],
    ['package.json ("jest", "scripts.test", "bin", "type")', section('package.json'), 'runner-config'],
    ['a nested package.json', added('lib/package.json'), 'runner-config'],
    ['Yarn\'s .pnp.cjs (module resolution)', added('.pnp.cjs'), 'runner-config'],
    ['jest.setup.js', section('jest.setup.js'), 'runner-config'],
    ['src/setupTests.ts', section('src/setupTests.ts'), 'runner-config'],
    ['vitest-setup.mjs', added('vitest-setup.mjs'), 'runner-config'],
    ['global-teardown.js', added('global-teardown.js'), 'runner-config'],
    ['a jest reporter', added('scripts/jest-reporter.cjs'), 'runner-config'],
    ['a test environment', added('lib/test-environment.js'), 'runner-config'],
    ['a Jest automock of a node module', added('__mocks__/lodash.js'), 'test-file'],
    ['a snapshot', section('src/__snapshots__/calc.js.snap'), 'test-file'],
    ['a spec file beside the code', added('src/calc.spec.ts'), 'test-file'],
    ['node_modules/.bin/jest', section('node_modules/.bin/jest'), 'shadows-module'],
    ['a runner\'s own module', section('node_modules/jest-circus/build/run.js'), 'shadows-module'],
    ['a new package in a nested node_modules', added('src/node_modules/assert/index.js'), 'shadows-module'],
    ['a `node` on PATH', added('node', '100755'), 'non-code'],
    ['an `npx` in bin/', added('bin/npx', '100755'), 'non-code'],
    ['a rename of a test file into code', 'diff --git a/tests/test_money.py b/pyledger/x.py\nsimilarity index 100%\nrename from tests/test_money.py\nrename to pyledger/x.py\n', 'oracle-test-file'],
  ])('drops %s', (_label, sectionText, reason) => {
    const result = sanitizePatch(CODE + sectionText, TESTS);
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.dropped.map((d) => d.reason)).toEqual([reason]);
    expect(parseUnifiedDiff(result.patch).files.map((f) => f.newPath)).toEqual(['pyledger/money.py']);
  });

  it.each<[string, string]>([
    ['a code file', CODE],
    ['a new module inside the package', added('pyledger/helpers.py')],
    ['an existing module named like the stdlib, inside a package', section('pyledger/csv.py')],
    ['a C source', section('pyledger/_speed.c')],
    ['a JS module', section('src/strings.mjs')],
    ['a new TS module', added('src/money/round.ts')],
    ['a module whose name mentions setup but is no setup file', section('src/setup.js')],
    ['a config module of the library itself', section('src/config.js')],
  ])('keeps %s, byte for byte', (_label, patch) => {
    expect(sanitizePatch(patch, TESTS)).toEqual({ status: 'ok', patch, dropped: [] });
  });
});

describe('sanitizePatch: patches refused as a whole', () => {
  it.each<[string, string, string, RegExp]>([
    ['an empty patch', '', 'patch-empty', /empty/],
    ['a blank patch', '\n\n  \n', 'patch-empty', /empty/],
    ['a file header without its hunks', 'diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n', 'patch-malformed', /not a valid unified diff/],
    ['a CRLF patch', CODE.replaceAll('\n', '\r\n'), 'patch-crlf', /CRLF/],
    ['a patch cut short', CODE.slice(0, -1), 'patch-no-trailing-newline', /newline/],
    ['prose', 'please fix the bug\n', 'patch-malformed', /not a valid unified diff/],
    ['a hunk that contradicts its header', 'diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n-a\n+b\n', 'patch-malformed', /not a valid unified diff/],
    ['a binary patch', `${CODE}diff --git a/pyledger/x.so b/pyledger/x.so\nnew file mode 100644\nindex 0000000..1111111\nGIT binary patch\nliteral 3\nKcmZQzWMT##\n\nliteral 0\nHcmV?d00001\n\n`, 'patch-binary', /binary/],
    ['a huge patch', `${CODE}${'+'.repeat(MAX_PATCH_BYTES)}\n`, 'patch-too-large', /over the/],
    ['only sections that cannot count', added('conftest.py') + section('tests/test_money.py'), 'no-code-change', /conftest\.py \(runner-config\)/],
  ])('%s', (_label, patch, code, reason) => {
    const result = sanitizePatch(patch, TESTS);
    expect(result).toMatchObject({ status: 'rejected', code });
    if (result.status === 'rejected') expect(result.reason).toMatch(reason);
  });
});

describe('sanitizePatch: a listed code file hosts doctests', () => {
  it('keeps its section for grading (its example hunks are judged by hunk at grading)', () => {
    const patch = section('more_itertools/more.py');
    const result = sanitizePatch(patch, ['more_itertools/more.py']);
    expect(result).toEqual({ status: 'ok', patch, dropped: [] });
  });

  it('still drops a listed test file', () => {
    const result = sanitizePatch(section('tests/test_money.py') + CODE, ['tests/test_money.py', 'more_itertools/more.py']);
    expect(result.dropped).toEqual([{ path: 'tests/test_money.py', reason: 'oracle-test-file' }]);
  });
});
