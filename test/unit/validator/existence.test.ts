import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existenceCheck } from '../../../consistency-checks/existence.js';
import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import { thresholdsSchema } from '../../../src/config/repos-schema.js';
import { EngineError } from '../../../src/util/engine-error.js';
import type { ApplyStateOutcome, ValidationContext } from '../../../src/validator/check-types.js';
import { TempGitRepo } from '../code/temp-git-repo.js';

const MOD = 'def f(x):\n    return x + 1\n';
const DOC = [
  'def double(x):',
  '    """Twice x.',
  '',
  '    >>> double(2)',
  '    4',
  '',
  '    >>> double(0)',
  '    0',
  '    """',
  '    return x * 2',
  '',
].join('\n');
const TESTS = 'from pkg.mod import f\n\n\ndef test_f():\n    assert f(1) == 2\n\n\ndef test_g():\n    assert f(2) == 3\n';

let repo: TempGitRepo;
let bugInject: string;
let testWeaken: string;

/** A real diff: make the edit in the repo, take `git diff`, put the repo back. */
function diffOf(edit: (repo: TempGitRepo) => void): string {
  edit(repo);
  const diff = repo.diff();
  repo.reset();
  return diff;
}

beforeAll(() => {
  repo = TempGitRepo.create({ 'pkg/mod.py': MOD, 'pkg/__init__.py': '', 'tests/test_mod.py': TESTS, 'tests/conftest.py': '', 'pkg/doc.py': DOC });
  bugInject = diffOf((r) => r.write('pkg/mod.py', MOD.replace('x + 1', 'x - 1')));
  testWeaken = diffOf((r) => r.write('tests/test_mod.py', TESTS.replace('    assert f(1) == 2\n', '    pass\n')));
});
afterAll(() => repo.dispose());

/** `git apply --check` in the real repo (O), and for W with bug_inject applied first. */
function applyState(artifact: BugArtifact, state: 'buggy' | 'weakened'): ApplyStateOutcome {
  const check = (diff: string): string | null => {
    const result = spawnSync('git', ['apply', '--check', '-'], { cwd: repo.dir, input: diff, encoding: 'utf8' });
    return result.status === 0 ? null : result.stderr.trim();
  };
  const bug = check(artifact.bugInject);
  if (bug !== null) return { status: 'apply-failed', diff: 'bug_inject.diff', detail: bug };
  if (state === 'buggy') return { status: 'applied' };
  repo.apply(artifact.bugInject);
  try {
    const weaken = check(artifact.testWeaken);
    return weaken === null ? { status: 'applied' } : { status: 'apply-failed', diff: 'test_weaken.diff', detail: weaken };
  } finally {
    repo.reset();
  }
}

function context(overrides: Partial<BugArtifact> = {}, seams: Partial<ValidationContext> = {}): ValidationContext {
  const artifact: BugArtifact = {
    bugInject,
    testWeaken,
    testFiles: ['tests/test_mod.py'],
    testScript: 'pytest -rA tests/test_mod.py\n',
    testParser: 'print("{}")\n',
    ...overrides,
  };
  return {
    artifact,
    thresholds: thresholdsSchema.parse({}),
    originalFiles: async () => new Set(repo.git('ls-files', '-z').split('\0').filter(Boolean)),
    originalDoctestFiles: async () => new Map(repo.git('grep', '-lz', '-F', '-e', '>>>', '--', '*.py').split('\0').filter(Boolean).map((path) => [path, readFileSync(join(repo.dir, path), 'utf8')])),
    applyState: async (state) => applyState(artifact, state),
    run: async () => {
      throw new Error('existence must not run tests');
    },
    runScript: async () => {
      throw new Error('existence must not run tests');
    },
    ...seams,
  };
}

describe('existence check', () => {
  it('passes a consistent artifact made with git', async () => {
    const result = await existenceCheck.run(context());
    expect(result).toEqual({
      status: 'pass',
      reason: '1 listed test file(s) exist; test_weaken.diff touches 1 listed file(s); bug_inject.diff touches 1 non-test file(s); both diffs apply cleanly',
      evidence: { testFiles: 1, bugFiles: ['pkg/mod.py'], weakenedFiles: ['tests/test_mod.py'] },
    });
  });

  it.each([
    { name: 'no listed test files', overrides: () => ({ testFiles: [] }), reason: /^test_files\.txt lists no test files$/ },
    { name: 'bug_inject.diff not a diff', overrides: () => ({ bugInject: 'I broke f\n' }), reason: /^bug_inject\.diff is not a valid unified diff: line 1: not a unified diff/ },
    {
      name: 'test_weaken.diff with a short hunk',
      overrides: () => ({ testWeaken: testWeaken.replace(/\n[^\n]*\n$/, '\n') }),
      reason: /^test_weaken\.diff is not a valid unified diff: line \d+: the hunk .* ends early/,
    },
    {
      name: 'listed file missing in O',
      overrides: () => ({ testFiles: ['tests/test_mod.py', 'tests/test_other.py'] }),
      reason: /^test_files\.txt lists files that do not exist in the original repo: tests\/test_other\.py$/,
    },
    {
      name: 'test_weaken touches an unlisted file',
      overrides: () => ({ testWeaken: diffOf((r) => (r.write('tests/test_mod.py', TESTS.replace('f(1) == 2', 'True')), r.write('tests/conftest.py', 'x = 1\n'))) }),
      reason: /^test_weaken\.diff touches files not listed in test_files\.txt: tests\/conftest\.py$/,
    },
    {
      name: 'bug_inject touches a listed file',
      overrides: () => ({ bugInject: diffOf((r) => (r.write('pkg/mod.py', 'x\n'), r.write('tests/test_mod.py', 'y\n'))) }),
      reason: /^bug_inject\.diff touches test files \(listed, or named like tests\): tests\/test_mod\.py$/,
    },
    {
      name: 'bug_inject touches an unlisted test file',
      overrides: () => ({ bugInject: diffOf((r) => r.write('tests/conftest.py', 'import sys\n')) }),
      reason: /^bug_inject\.diff touches test files .*: tests\/conftest\.py$/,
    },
    {
      name: 'bug_inject escapes the repo',
      overrides: () => ({ bugInject: '--- a/../etc/x\n+++ b/../etc/x\n@@ -1 +1 @@\n-a\n+b\n' }),
      reason: /^the diffs touch paths outside the repo: "\.\." segment in "\.\.\/etc\/x"/,
    },
    {
      name: 'bug_inject writes into .git',
      overrides: () => ({ bugInject: '--- a/.git/config\n+++ b/.git/config\n@@ -1 +1 @@\n-a\n+b\n' }),
      reason: /^the diffs touch paths outside the repo: "\.git\/config" is inside \.git/,
    },
    {
      name: 'several problems at once',
      overrides: () => ({ testFiles: ['tests/missing.py'], bugInject: diffOf((r) => r.write('tests/test_mod.py', 'y\n')) }),
      reason: /lists files that do not exist .*tests\/missing\.py; test_weaken\.diff touches files not listed .*tests\/test_mod\.py; bug_inject\.diff touches test files .*tests\/test_mod\.py$/,
    },
    {
      name: 'bug_inject does not apply to O',
      overrides: () => ({ bugInject: bugInject.replace('-    return x + 1', '-    return x + 2') }),
      reason: /^bug_inject\.diff does not apply cleanly to the original repo: error: patch failed: pkg\/mod\.py:1/,
    },
    {
      name: 'test_weaken does not apply to B',
      overrides: () => ({ testWeaken: testWeaken.replace('-    assert f(1) == 2', '-    assert f(1) == 5') }),
      reason: /^test_weaken\.diff does not apply cleanly to the buggy repo \(original \+ bug_inject\.diff\): error: patch failed: tests\/test_mod\.py/,
    },
  ])('fails: $name', async ({ overrides, reason }) => {
    const result = await existenceCheck.run(context(overrides()));
    expect(result.status).toBe('fail');
    expect(result.reason).toMatch(reason);
  });

  it.each([
    {
      name: 'listing the original files fails',
      seams: { originalFiles: async () => Promise.reject(new EngineError('sandbox-failed', 'container vanished')) },
      reason: /^could not read the original repo's files: container vanished$/,
    },
    {
      name: 'preparing a state fails',
      seams: { applyState: async () => ({ status: 'error' as const, error: new EngineError('docker-unavailable', 'daemon down') }) },
      reason: /^could not prepare the buggy state: daemon down$/,
    },
  ])('reports infrastructure as error, not fail: $name', async ({ seams, reason }) => {
    const result = await existenceCheck.run(context({}, seams));
    expect(result.status).toBe('error');
    expect(result.reason).toMatch(reason);
  });
});

describe('existence check on a doctest host (examples in a code file are its tests)', () => {
  const BUGGY = DOC.replace('return x * 2', 'return x ** 2');
  const bug = () => diffOf((r) => r.write('pkg/doc.py', BUGGY));
  /** test_weaken.diff against B: the bug staged, then `edit` of the file on B. */
  const onBuggy = (edit: (text: string) => string, path = 'pkg/doc.py') => {
    repo.apply(bug());
    repo.git('add', '-A');
    const text = readFileSync(join(repo.dir, path), 'utf8');
    repo.write(path, edit(text));
    const diff = repo.git('diff');
    repo.reset();
    return diff;
  };
  // double(2) == 4 still holds under x ** 2; double(0) too: drop the first example anyway (a real weakening shape).
  const hideFirst = (text: string) => text.replace('    >>> double(2)\n    4\n\n', '');
  const doctestArtifact = (overrides: Partial<BugArtifact> = {}): Partial<BugArtifact> => ({ bugInject: bug(), testWeaken: onBuggy(hideFirst), testFiles: ['pkg/doc.py'], ...overrides });

  it('passes a bug in the code and a weakening that removes an example, both in the listed file', async () => {
    const result = await existenceCheck.run(context(doctestArtifact()));
    expect(result.reason).toMatch(/bug_inject\.diff touches 1 non-test file/);
    expect(result.status).toBe('pass');
  });

  it.each([
    {
      name: 'bug_inject only edits an expected output (a test edit, not a bug)',
      overrides: () => ({ bugInject: diffOf((r) => r.write('pkg/doc.py', DOC.replace('    4\n', '    5\n'))), testWeaken: '' }),
      reason: /bug_inject\.diff must change code and no doctest example: pkg\/doc\.py hunk 1 \(line \d+\) changes only doctest examples/,
    },
    {
      name: 'bug_inject edits an expected output in the same hunk as the code',
      overrides: () => ({ bugInject: diffOf((r) => r.write('pkg/doc.py', DOC.replace('    0\n    """\n    return x * 2', '    1\n    """\n    return x * 3'))), testWeaken: '' }),
      reason: /pkg\/doc\.py hunk 1 \(line \d+\) changes doctest example lines beside the code/,
    },
    {
      name: 'test_weaken changes the code of the doctest host',
      overrides: () => ({ testWeaken: onBuggy((text) => text.replace('x ** 2', 'x * 2')) }),
      reason: /test_weaken\.diff may change a code file only in its doctest examples: pkg\/doc\.py hunk 1 .* changes code/,
    },
    {
      name: 'test_weaken edits a listed code file that holds no examples',
      overrides: () => ({ testFiles: ['pkg/doc.py', 'pkg/mod.py'], testWeaken: onBuggy((text) => text.replace('x + 1', 'x + 2'), 'pkg/mod.py') }),
      reason: /pkg\/mod\.py is a code file and holds no doctest examples test_weaken\.diff could change/,
    },
  ])('fails: $name', async ({ overrides, reason }) => {
    const result = await existenceCheck.run(context(doctestArtifact(overrides())));
    expect(result.status).toBe('fail');
    expect(result.reason).toMatch(reason);
  });
});
