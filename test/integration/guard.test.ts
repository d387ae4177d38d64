import { beforeAll, describe, expect, it } from 'vitest';
import { isGuardedRun } from '../../src/harness/guard-report.js';
import { readDefaultTestFiles } from '../../src/harness/default-files.js';
import { runTests } from '../../src/harness/run-tests.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { dockerTemplate, tinyRepo, withSandbox } from '../helpers/sandboxes.js';

/** One test of every kind pytest knows; the guard must pass only the real passes. */
const KINDS = `import pytest

def test_pass():
    assert True

def test_fail():
    assert False

@pytest.mark.skip(reason="no")
def test_skip():
    pass

@pytest.mark.xfail(reason="known")
def test_xfail():
    assert False

@pytest.mark.xfail(reason="known")
def test_xpass():
    pass

@pytest.fixture
def broken_teardown():
    yield
    raise RuntimeError("teardown")

def test_teardown_error(broken_teardown):
    pass

@pytest.fixture
def broken_setup():
    raise RuntimeError("setup")

def test_setup_error(broken_setup):
    pass
`;

describe('the guard plugin on a real pytest run (docker, tiny repo)', () => {
  let template: SandboxTemplate;
  beforeAll(async () => {
    template = await dockerTemplate(await tinyRepo());
  });

  it('records the runner’s own outcome of every kind: only real passes are passed', async () => {
    const report = await withSandbox(template, async (sandbox) => {
      await sandbox.writeFile('/repo/tests/test_kinds.py', KINDS);
      return runTests(sandbox, { ...readDefaultTestFiles(), timeoutMs: 60_000 });
    });
    const id = (name: string): string => `tests/test_kinds.py::${name}`;
    expect(report.guard).toMatchObject({ sessions: 1, invalid: 0, tampered: [] });
    expect(report.guard?.outcomes).toEqual({
      'tests/test_calc.py::test_add': 'passed',
      [id('test_pass')]: 'passed',
      [id('test_fail')]: 'failed',
      [id('test_skip')]: 'skipped',
      [id('test_xfail')]: 'xfailed',
      [id('test_xpass')]: 'xpassed',
      [id('test_teardown_error')]: 'failed',
      [id('test_setup_error')]: 'failed',
    });
    // The default parser agrees on every pass, so this run can hold later runs to its guard.
    expect(isGuardedRun(report.guard, report.statuses)).toBe(true);
  });

  it('leaves no guard file behind and gives the same statuses as an unguarded run', async () => {
    const run = (guard: boolean) => withSandbox(template, async (sandbox) => {
      const report = await runTests(sandbox, { ...readDefaultTestFiles(), timeoutMs: 60_000, guard });
      const left = await sandbox.exec('ls -A /ssr | grep "^\\.g" | wc -l; git -C /repo status --porcelain | wc -l', { timeoutMs: 10_000 });
      return { statuses: report.statuses, guarded: report.guard !== undefined, left: left.output.trim() };
    });
    const [guarded, plain] = await Promise.all([run(true), run(false)]);
    expect(guarded).toEqual({ statuses: plain.statuses, guarded: true, left: '0\n0' });
    expect(plain.guarded).toBe(false);
  });

  const standalone = "mkdir -p /tmp/t && printf 'def test_ok():\\n    assert True\\n' > /tmp/t/test_ok.py && cd /tmp/t && ";
  it.each<[string, string, Record<string, string>, number]>([
    ['a script that sets its own PYTHONPATH is still guarded', 'cd /repo && PYTHONPATH=/repo python3 -m pytest -rA -p no:cacheprovider', { 'tests/test_calc.py::test_add': 'passed' }, 1],
    ['the pytest console script is guarded', `${standalone}pytest-3 -rA -p no:cacheprovider`, { 'test_ok.py::test_ok': 'passed' }, 1],
    ['an isolated python (-I) cannot see the guard: unguarded, never broken', `${standalone}python3 -I -m pytest -rA -p no:cacheprovider`, { 'test_ok.py::test_ok': 'passed' }, 0],
  ])('%s', async (_label, script, statuses, sessions) => {
    const report = await withSandbox(template, (sandbox) => runTests(sandbox, { testScript: script, testParser: readDefaultTestFiles().testParser, timeoutMs: 60_000 }));
    expect(report.statuses).toEqual(statuses);
    expect(report.guard?.sessions).toBe(sessions);
  });
});

/** Honest tests that write: a data file beside the tests, a tmp_path file, a repo file, and git. */
const WRITES_DATA = `import json, pathlib, subprocess

HERE = pathlib.Path(__file__).parent

def test_writes_data(tmp_path):
    (HERE / "out").mkdir(exist_ok=True)
    (HERE / "out" / "result.json").write_text(json.dumps({"ok": 1}))
    (tmp_path / "x.txt").write_text("x")
    (HERE.parent / "cache.txt").write_text("c")
    assert subprocess.run(["git", "status", "--short"], cwd=HERE.parent).returncode == 0
`;

/** Tests that write test material: their own file from Python, a new test file through a shell. */
const WRITES_TESTS = `import pathlib, subprocess

HERE = pathlib.Path(__file__).parent

def test_appends_to_itself():
    try:
        with open(__file__, "a") as handle:
            handle.write("# more\\n")
    except OSError:
        pass

def test_shell_adds_a_test_file():
    subprocess.run("printf 'def test_x():\\\\n    pass\\\\n' > tests/test_added.py", shell=True, cwd=HERE.parent)
`;

describe('test material cannot change during a guarded run (docker, tiny repo)', () => {
  it('lets honest tests write data, and reports every write to test material by name', async () => {
    const template = await dockerTemplate(await tinyRepo());
    // Owner, mode and change time (any change of owner or mode sets it) of what no run touches:
    // the module under test and git's objects.
    const untouched = 'find /repo/calc.py /repo/.git/objects -printf "%p %U:%G %m %C@\\n"';
    const [honest, hostile, metadata] = await withSandbox(template, async (sandbox) => {
      await sandbox.writeFile('/repo/tests/test_writes.py', WRITES_DATA);
      const before = (await sandbox.exec(untouched)).output;
      const first = await runTests(sandbox, { ...readDefaultTestFiles(), timeoutMs: 60_000 });
      const after = (await sandbox.exec(untouched)).output;
      await sandbox.exec('rm -f /repo/tests/test_writes.py', { timeoutMs: 10_000 });
      await sandbox.writeFile('/repo/tests/test_hostile.py', WRITES_TESTS);
      return [first, await runTests(sandbox, { ...readDefaultTestFiles(), timeoutMs: 60_000 }), { before, after }] as const;
    });
    expect(honest.statuses).toEqual({ 'tests/test_calc.py::test_add': 'passed', 'tests/test_writes.py::test_writes_data': 'passed' });
    expect(honest.material).toEqual({ mode: 'read-only', changes: [] });
    expect(honest.guard?.tampered).toEqual([]);
    // The Python write is refused (the file is not the test user's) and seen by the audit hook;
    // the shell's new test file is found by the hashes.
    expect(hostile.material).toEqual({ mode: 'read-only', changes: ['added tests/test_added.py'] });
    expect(hostile.guard?.tampered).toEqual(['test-file-write:tests/test_hostile.py']);
    // The image already gives the repo to the test user, so the lock changes nothing else: on
    // overlayfs a chown of every file copied the whole repo into each fresh sandbox's own layer.
    expect(metadata.before).toMatch(/^\/repo\/calc\.py 65534:65534 644 /);
    expect(metadata.after).toBe(metadata.before);
  }, 120_000);
});
