import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderIndependenceCheck } from '../../../consistency-checks/order-independence.js';
import type { StatusMap } from '../../../src/harness/test-report.js';
import type { CheckScript } from '../../../src/validator/script-runs.js';
import { focusRunner, orderRunScript, spread } from '../../../src/validator/order-run-script.js';
import { readJsTestFiles } from '../../../src/harness/js-test-files.js';
import { contextWithRuns, ran } from './check-context.js';

// A buggy tree with module state: one genuine failure, one that fails only after a test that
// dirties the state (passes alone), one that fails unless a later test ran first (flips in reverse).
const PYTEST_TESTS = `STATE = []
LATE = []


def test_a_needs_late():
    assert LATE == [1]


def test_dirty_state():
    STATE.append(1)


def test_needs_clean_state():
    assert STATE == []


def test_real_bug():
    assert 1 + 1 == 3


def test_z_sets_late():
    LATE.append(1)
    assert 2 + 2 == 5
`;

const UNITTEST_TESTS = `import unittest

STATE = []
LATE = []


class TestOrder(unittest.TestCase):
    def test_a_needs_late(self):
        self.assertEqual(LATE, [1])

    def test_dirty_state(self):
        STATE.append(1)

    def test_needs_clean_state(self):
        """State left by another test breaks it."""
        self.assertEqual(STATE, [])

    def test_real_bug(self):
        self.assertEqual(1 + 1, 3)

    def test_z_sets_late(self):
        LATE.append(1)
        self.assertEqual(2 + 2, 5)
`;

const NAMES = ['test_a_needs_late', 'test_needs_clean_state', 'test_real_bug', 'test_z_sets_late'];
const flavours = {
  pytest: { script: 'python3 -m pytest -rA -p no:cacheprovider tests/test_order.py\n', id: (name: string) => `tests/test_order.py::${name}` },
  unittest: { script: 'python3 -m unittest -v tests.test_order\n', id: (name: string) => `tests.test_order.TestOrder.${name}` },
} as const;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ssr-order-'));
  for (const [name, text] of [['pytest', PYTEST_TESTS], ['unittest', UNITTEST_TESTS]] as const) {
    mkdirSync(join(dir, name, 'tests'), { recursive: true });
    writeFileSync(join(dir, name, 'tests', '__init__.py'), '');
    writeFileSync(join(dir, name, 'tests', 'test_order.py'), text);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Async, so a slow shared machine does not block the test worker. */
async function run(command: string, args: string[], input?: string): Promise<string> {
  const child = promisify(execFile)(command, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (input !== undefined) child.child.stdin!.end(input);
  const { stdout, stderr } = await child;
  return stdout + stderr;
}

/** The check's script and parser, really run on the host tree (real pytest / unittest, real python parser). */
function runOnHost(flavour: keyof typeof flavours, scripts: CheckScript[]) {
  return async (_name: string, script: CheckScript) => {
    scripts.push(script);
    const root = join(dir, flavour);
    const log = await run('bash', ['-c', script.testScript.replace('cd /repo', `cd '${root}'`)]);
    const parsed = await run('python3', ['-c', script.testParser], log);
    return ran(JSON.parse(parsed) as StatusMap);
  };
}

function maps(flavour: keyof typeof flavours, hidden: readonly string[]) {
  const id = flavours[flavour].id;
  const original: StatusMap = { [id('test_dirty_state')]: 'passed' };
  const buggy: StatusMap = { [id('test_dirty_state')]: 'passed' };
  const weakened: StatusMap = { [id('test_dirty_state')]: 'passed' };
  for (const name of NAMES) {
    original[id(name)] = 'passed';
    buggy[id(name)] = 'failed';
    if (!hidden.includes(name)) weakened[id(name)] = 'failed';
  }
  return { original, buggy, weakened };
}

describe.each(['pytest', 'unittest'] as const)('order-independence check (%s, real runs on the host)', { timeout: 120_000 }, (flavour) => {
  const id = flavours[flavour].id;
  const artifact = { testScript: flavours[flavour].script, testFiles: ['tests/test_order.py'] };

  it('drops the test that passes alone and the one that flips in reverse order, keeps the genuine ones', async () => {
    const scripts: CheckScript[] = [];
    const ctx = contextWithRuns({ artifact, runs: maps(flavour, ['test_real_bug']), runScript: runOnHost(flavour, scripts) });
    const verdict = await orderIndependenceCheck.run(ctx);
    expect(verdict.status, verdict.reason).toBe('pass');
    expect(verdict.notFailToPass).toEqual([id('test_a_needs_late'), id('test_needs_clean_state')]);
    expect(verdict.evidence).toMatchObject({ runner: flavour, judgedAlone: 4, judgedReversed: 4, passesAlone: [id('test_needs_clean_state')], flipsWithOrder: [id('test_a_needs_late')] });
    expect(scripts).toHaveLength(1);
  });

  it('rejects the bug when the weakening hides only order-dependent tests', async () => {
    const ctx = contextWithRuns({ artifact, runs: maps(flavour, ['test_needs_clean_state']), runScript: runOnHost(flavour, []) });
    const verdict = await orderIndependenceCheck.run(ctx);
    expect(verdict.status).toBe('fail');
    expect(verdict.reason).toMatch(/hides only tests that depend on order/);
  });

  it('rejects the bug when every failing test depends on order', async () => {
    const runs = maps(flavour, ['test_needs_clean_state']);
    // F is only the test that passes alone.
    for (const name of ['test_a_needs_late', 'test_real_bug', 'test_z_sets_late']) runs.buggy[id(name)] = 'passed';
    const ctx = contextWithRuns({ artifact, runs, runScript: runOnHost(flavour, []) });
    const verdict = await orderIndependenceCheck.run(ctx);
    expect(verdict.status).toBe('fail');
    expect(verdict.reason).toMatch(/every FAIL_TO_PASS test passes alone or in another order/);
  });
});

describe('order-independence check, bounds', () => {
  it('does not judge a runner it cannot address test by test (no extra run)', async () => {
    const ctx = contextWithRuns({ artifact: { testScript: 'make check\n' }, runs: { original: { t1: 'passed' }, buggy: { t1: 'failed' } } });
    const verdict = await orderIndependenceCheck.run(ctx);
    expect(verdict).toMatchObject({ status: 'pass', evidence: { judged: 0 } });
  });

  it('runs at most 10 tests alone, spread over the sorted ids', () => {
    const ids = Array.from({ length: 40 }, (_, i) => `tests/test_${String(i).padStart(2, '0')}.py::t`);
    const picked = spread(ids, 10);
    expect(picked).toHaveLength(10);
    expect(picked[0]).toBe(ids[0]);
    expect(picked.at(-1)).toBe(ids[36]);
    expect(focusRunner('pytest -rA', ids)).toBe('pytest');
    expect(focusRunner('python -m unittest -v', ['a.b.C.t'])).toBe('unittest');
    expect(focusRunner('python -m unittest -v', ['tests/x.py::t'])).toBeNull();
  });
});

// node:test (the host's Node runs it): a test that fails only after another dirtied the module's
// state passes alone and leaves FAIL_TO_PASS; a genuine failure fails alone and stays.
const NODE_TESTS = `import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

const state = [];
describe('order', () => {
  test('dirty state', () => { state.push(1); });
  test('needs clean state', () => { assert.deepEqual(state, []); });
  test('real bug (1 + 1)', () => { assert.equal(1 + 1, 3); });
});
test('top level [x]', () => { assert.equal(state.length, 0); });
`;

describe('order-independence check (node:test, real runs on the host)', { timeout: 120_000 }, () => {
  const file = 'test/order.test.mjs';
  const id = (...names: string[]): string => [file, ...names].join(' > ');
  const artifact = { testScript: 'node --test --test-reporter=tap "$file"\n', testFiles: [file] };
  let root: string;
  beforeAll(() => {
    root = join(dir, 'node-test');
    mkdirSync(join(root, 'test'), { recursive: true });
    writeFileSync(join(root, file), NODE_TESTS);
  });

  it('runs each failing test alone by its exact name: the order-dependent ones leave FAIL_TO_PASS', async () => {
    const scripts: CheckScript[] = [];
    const broken = [id('order', 'needs clean state'), id('order', 'real bug (1 + 1)'), id('top level [x]')];
    const runs = { original: {} as StatusMap, buggy: {} as StatusMap, weakened: {} as StatusMap };
    for (const test of [...broken, id('order', 'dirty state')]) {
      runs.original[test] = 'passed';
      runs.buggy[test] = broken.includes(test) ? 'failed' : 'passed';
      runs.weakened[test] = test === id('order', 'real bug (1 + 1)') ? 'passed' : runs.buggy[test];
    }
    const runScript = async (_name: string, script: CheckScript) => {
      scripts.push(script);
      const log = await run('bash', ['-c', script.testScript.replace('cd /repo', `cd '${root}'`)]);
      return ran(JSON.parse(await run('python3', ['-c', script.testParser], log)) as StatusMap);
    };
    const verdict = await orderIndependenceCheck.run(contextWithRuns({ artifact, runs, runScript }));
    expect(verdict.status, verdict.reason).toBe('pass');
    expect(verdict.notFailToPass).toEqual([id('order', 'needs clean state'), id('top level [x]')]);
    expect(verdict.evidence).toMatchObject({ runner: 'node-test', judgedAlone: 3, judgedReversed: 0, passesAlone: [id('order', 'needs clean state'), id('top level [x]')] });
    expect(scripts[0]!.testScript).toContain("--test-name-pattern='^real bug \\(1 \\+ 1\\)$'");
  });

  it('does not judge a name no test has: nothing ran, so nothing passed alone', async () => {
    const ghost = id('order', 'no such test');
    const runs = { original: { [ghost]: 'passed' } as StatusMap, buggy: { [ghost]: 'failed' } as StatusMap, weakened: {} as StatusMap };
    const runScript = async (_name: string, script: CheckScript) => {
      const log = await run('bash', ['-c', script.testScript.replace('cd /repo', `cd '${root}'`)]);
      return ran(JSON.parse(await run('python3', ['-c', script.testParser], log)) as StatusMap);
    };
    const verdict = await orderIndependenceCheck.run(contextWithRuns({ artifact, runs, runScript }));
    expect(verdict).toMatchObject({ status: 'pass', evidence: { runner: 'node-test', judgedAlone: 0 } });
  });
});

describe('order-independence for JS runners: which runner, and how one test is addressed', () => {
  it.each<[string, string[], string | null]>([
    ['node-test', ['test/a.test.mjs > suite > adds'], 'node-test'],
    ['jest', ['test/a.test.js > calc > adds'], 'jest'],
    ['vitest', ['src/a.test.ts > adds'], 'vitest'],
    ['mocha', ['test/a.spec.js > calc adds'], 'mocha'],
    ['tape', ['test/a.js > adds'], 'tap-file'],
  ])('reads the default %s script as its runner', (runner, ids, expected) => {
    expect(focusRunner(readJsTestFiles(runner as never).testScript, ids)).toBe(expected);
  });

  it('does not address ids that are not "file > names"', () => {
    expect(focusRunner(readJsTestFiles('jest').testScript, ['calc adds'])).toBeNull();
    expect(focusRunner(readJsTestFiles('node-test').testScript, ['tests/test_x.py::t'])).toBeNull();
  });

  it.each<[string, string, string]>([
    ['node-test', 'test/a.test.mjs > suite > adds (a.b)', "node --test --test-reporter=tap --test-name-pattern='^adds \\(a\\.b\\)$' test/a.test.mjs"],
    ['jest', 'test/a.test.js > calc > adds', "node_modules/.bin/jest --ci --json --watchman=false --cacheDirectory=/tmp/ssr-jest-cache --runTestsByPath test/a.test.js -t '^calc adds$'"],
    ['vitest', 'src/a.test.ts > it\'s [x]', "node_modules/.bin/vitest run --reporter=json --color=false src/a.test.ts -t '^it'\\''s \\[x\\]$'"],
    ['mocha', 'test/a.spec.js > calc adds', "node_modules/.bin/mocha --reporter json --no-color --grep '^calc adds$' test/a.spec.js"],
    ['tap-file', 'test/a.js > adds', 'node test/a.js'],
  ])('%s: runs the test alone by its exact, anchored name within its file', (runner, id, command) => {
    const script = orderRunScript(runner as never, [id], [id], []).testScript;
    expect(script).toContain(`\n${command} < /dev/null 2>&1\n`);
    expect(script).toMatch(/@@ssr-alone-begin .*\n.*\n.*@@ssr-alone-end \$\? /);
  });
});
