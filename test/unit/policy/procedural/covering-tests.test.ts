import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coveringTests, OUTSIDE_TESTS, parseTestCoverage, unionOfTests, type TestCoverage } from '../../../../src/policy/procedural/injector/covering-tests.js';
import type { BugCandidate } from '../../../../src/policy/procedural/injector/bug-candidate.js';
import { orderByReach, reachOf } from '../../../../src/policy/procedural/injector/candidate-order.js';
import { assetsDir } from '../../../../src/policy/procedural/injector/injector-assets.js';
import { traceLinesPath, v8LinesScript } from '../../../../src/coverage/trace-script.js';

const TRACE = traceLinesPath();
const SUMMARIZE = join(assetsDir(), 'scripts', 'summarize_run.py');

/** A tiny package: add() is run by test_add and test_mul (through mul), mul() by test_mul only, nothing by test_none. */
const FILES: Record<string, string> = {
  'pkg/__init__.py': '',
  'pkg/calc.py': 'LIMIT = 10\n\n\ndef add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    total = 0\n    for _ in range(b):\n        total = add(total, a)\n    return total\n',
  'tests/__init__.py': '',
  'tests/test_add.py': 'import unittest\nfrom pkg.calc import add\n\n\nclass TestAdd(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n',
  'tests/test_mul.py': 'import unittest\nfrom pkg.calc import mul\n\n\nclass TestMul(unittest.TestCase):\n    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n',
  'tests/test_none.py': 'import unittest\n\n\nclass TestNone(unittest.TestCase):\n    def test_nothing(self):\n        self.assertTrue(True)\n',
};
/** A test that takes the tracer over, as a debugger or a coverage tool would. */
const DEBUGGER = 'import sys\nimport unittest\n\n\nclass TestDebugger(unittest.TestCase):\n    def test_takes_the_tracer(self):\n        sys.settrace(None)\n';

let dir: string;

function repo(name: string, extra: Record<string, string> = {}): string {
  const root = join(dir, name);
  for (const [path, text] of Object.entries({ ...FILES, ...extra })) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, 'files.txt'), 'pkg/calc.py\npkg/__init__.py\n');
  return root;
}

/** trace_lines.py on the host's python3 (stdlib unittest), then its --query for pkg/calc.py, as the Injector runs them. */
function traceAndQuery(root: string): string {
  execFileSync('python3', [TRACE, 'files.txt', '--map', 'map.txt', 'unittest', 'discover', '-s', '.'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return execFileSync('python3', [TRACE, '--query', 'map.txt', 'pkg/calc.py'], { cwd: root, encoding: 'utf8' });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ssr-covering-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('per-test coverage (trace_lines.py --map, real unittest run) → the test files a change runs against', () => {
  it('maps each line to the test files that execute it, and picks only those for a change', () => {
    const read = parseTestCoverage(traceAndQuery(repo('clean')));
    expect(read.status).toBe('ok');
    const coverage = read.status === 'ok' ? read.coverage : null;
    expect([...coverage!.testFiles].sort()).toEqual(['tests/test_add.py', 'tests/test_mul.py', 'tests/test_none.py']);
    // `return a + b` (line 5): both tests that reach add(); the loop of mul() (9-12): test_mul only.
    expect(coveringTests(coverage, 'pkg/calc.py', 5, 5)).toEqual({ status: 'restricted', files: ['tests/test_add.py', 'tests/test_mul.py'] });
    expect(coveringTests(coverage, 'pkg/calc.py', 9, 12)).toEqual({ status: 'restricted', files: ['tests/test_mul.py'] });
    // `LIMIT = 10` runs at import, outside any test: it can reach every importer.
    expect(coveringTests(coverage, 'pkg/calc.py', 1, 1)).toMatchObject({ status: 'full', reason: expect.stringContaining('outside any test') });
    expect(coveringTests(coverage, 'pkg/other.py', 3, 3)).toMatchObject({ status: 'full' });
    expect(coveringTests(coverage, 'pkg/calc.py', 2, 3)).toMatchObject({ status: 'full', reason: expect.stringContaining('no test executes') });
  });

  it('falls back to the whole suite when a test takes the tracer over, or the map comes back cut', () => {
    const disturbed = parseTestCoverage(traceAndQuery(repo('debugger', { 'tests/test_zdebug.py': DEBUGGER })));
    expect(disturbed).toMatchObject({ status: 'unusable', reason: expect.stringContaining('tests.test_zdebug.TestDebugger.test_takes_the_tracer') });
    const whole = traceAndQuery(join(dir, 'clean'));
    const cut = whole.split('\n').filter((line) => !line.startsWith('@@tcov pkg/calc.py 9-12')).join('\n');
    expect(parseTestCoverage(cut)).toMatchObject({ status: 'unusable', reason: expect.stringContaining('cut short') });
    expect(parseTestCoverage('Traceback (most recent call last):\n')).toMatchObject({ status: 'unusable', reason: expect.stringContaining('did not finish') });
    expect(coveringTests(null, 'pkg/calc.py', 5, 5)).toMatchObject({ status: 'full' });
  });
});

describe('per-test coverage of a JS suite (v8_lines.py --map: one Node process per test file)', () => {
  it('files each process\'s lines under the one test file it loaded, and the runner\'s own under *', () => {
    const root = join(dir, 'v8');
    const repoDir = join(root, 'repo');
    mkdirSync(join(repoDir, 'src'), { recursive: true });
    mkdirSync(join(root, 'cov'));
    const source = 'export function used(x) {\n  return x + 1;\n}\n\nexport function other() {\n  return 3;\n}\n';
    writeFileSync(join(repoDir, 'src', 'm.mjs'), source);
    const at = (text: string) => source.indexOf(text);
    const module = { functionName: '', ranges: [{ startOffset: 0, endOffset: source.length, count: 1 }] };
    const fn = (name: string, count: number) => ({ functionName: name, ranges: [{ startOffset: at(`function ${name}`), endOffset: name === 'used' ? at('\n\nexport') : source.length - 1, count }] });
    const url = (path: string) => `file://${repoDir}/${path}`;
    const process = (name: string, scripts: object[]) => writeFileSync(join(root, 'cov', `coverage-${name}.json`), JSON.stringify({ result: scripts }));
    // a.test.mjs's process calls used(); b.test.mjs's calls other(); the runner's process loads the module and calls nothing.
    process('1', [{ url: url('test/a.test.mjs'), functions: [] }, { url: url('src/m.mjs'), functions: [module, fn('used', 1), fn('other', 0)] }]);
    process('2', [{ url: url('test/b.test.mjs'), functions: [] }, { url: url('src/m.mjs'), functions: [module, fn('used', 0), fn('other', 2)] }]);
    process('3', [{ url: url('src/m.mjs'), functions: [{ ...module, ranges: [{ ...module.ranges[0]!, count: 0 }] }] }]);
    writeFileSync(join(root, 'code.txt'), 'src/m.mjs\n');
    writeFileSync(join(root, 'tests.txt'), 'test/a.test.mjs\ntest/b.test.mjs\ntest/c.test.mjs\n');
    const script = v8LinesScript().replaceAll('file:///repo/', `file://${repoDir}/`).replaceAll('"/repo"', JSON.stringify(repoDir));
    writeFileSync(join(root, 'v8_lines.py'), script);
    execFileSync('python3', [join(root, 'v8_lines.py'), join(root, 'code.txt'), join(root, 'cov'), '--map', join(root, 'map.txt'), join(root, 'tests.txt')], { encoding: 'utf8' });
    const read = parseTestCoverage(execFileSync('python3', [TRACE, '--query', join(root, 'map.txt'), 'src/m.mjs'], { encoding: 'utf8' }));
    expect(read.status).toBe('ok');
    const coverage = read.status === 'ok' ? read.coverage : null;
    // c.test.mjs ran in no process of its own: absent, which queryTestCoverage refuses against the clean run's files.
    expect([...coverage!.testFiles].sort()).toEqual(['test/a.test.mjs', 'test/b.test.mjs']);
    expect(coveringTests(coverage, 'src/m.mjs', 2, 2)).toEqual({ status: 'restricted', files: ['test/a.test.mjs'] });
    expect(coveringTests(coverage, 'src/m.mjs', 6, 6)).toEqual({ status: 'restricted', files: ['test/b.test.mjs'] });
  });
});

describe('coveringTests and unionOfTests', () => {
  const coverage: TestCoverage = {
    testFiles: new Set(['t/a.py', 't/b.py', 't/c.py']),
    lines: new Map([['m.py', new Map([[3, new Set(['t/a.py'])], [4, new Set(['t/b.py'])], [5, new Set(['t/a.py', 't/b.py', 't/c.py'])]])]]),
  };

  it('unites the test files of every covered line of the range; every test file means the whole suite', () => {
    expect(coveringTests(coverage, 'm.py', 3, 4)).toEqual({ status: 'restricted', files: ['t/a.py', 't/b.py'] });
    expect(coveringTests(coverage, 'm.py', 4, undefined)).toEqual({ status: 'restricted', files: ['t/b.py'] });
    expect(coveringTests(coverage, 'm.py', 3, 5)).toMatchObject({ status: 'full', reason: 'every test file executes the change' });
    expect(coveringTests(coverage, 'm.py', undefined, undefined)).toMatchObject({ status: 'full' });
  });

  it('a multi-file run takes the union, or the whole suite when any part needs it', () => {
    expect(unionOfTests([{ status: 'restricted', files: ['b'] }, { status: 'restricted', files: ['a', 'b'] }])).toEqual({ status: 'restricted', files: ['a', 'b'] });
    expect(unionOfTests([{ status: 'restricted', files: ['b'] }, { status: 'full', reason: 'x' }])).toEqual({ status: 'full', reason: 'x' });
  });
});

describe('orderByReach: candidates a few test files execute are tried first', () => {
  const coverage: TestCoverage = {
    testFiles: new Set(['t/a.py', 't/b.py', 't/c.py']),
    lines: new Map([['m.py', new Map([[1, new Set([OUTSIDE_TESTS])], [3, new Set(['t/a.py'])], [4, new Set(['t/a.py', 't/b.py'])], [5, new Set(['t/a.py', 't/b.py', 't/c.py'])]])]]),
  };
  const candidate = (name: string, line: number): BugCandidate => ({
    file: 'm.py', record: { operator: name, kind: 'removal', file: 'm.py', line, endLine: line, description: name },
    apply: { type: 'edit', edit: { search: 'x', replace: 'y' } }, rationale: name,
  });
  // Drawn order: every test file, import time, two files, one file, one file again.
  const drawn = [candidate('everywhere', 5), candidate('import', 1), candidate('two', 4), candidate('one', 3), candidate('one-again', 3)];

  it('narrow before wide before everywhere, each group in its drawn order', () => {
    const names = (list: BugCandidate[]) => list.map((c) => c.record.operator);
    expect(names(orderByReach(drawn, coverage, { maxFailingTests: 40, maxFailingFiles: 8 }))).toEqual(['two', 'one', 'one-again', 'everywhere', 'import']);
    // Past the files cap, two files are wide: after the one-file changes.
    expect(names(orderByReach(drawn, coverage, { maxFailingTests: 40, maxFailingFiles: 1 }))).toEqual(['one', 'one-again', 'two', 'everywhere', 'import']);
    // No map, nothing known: the drawn order.
    expect(names(orderByReach(drawn, null, { maxFailingTests: 40, maxFailingFiles: 8 }))).toEqual(names(drawn));
    expect(reachOf(drawn[0]!, coverage, { maxFailingTests: 40, maxFailingFiles: 8 })).toBe('everywhere');
  });
});

describe('summarize_run.py --ran: a restricted run read as the whole suite', () => {
  it('fills the tests of the groups it did not run from the baseline, so they are not "missing"', () => {
    const root = join(dir, 'summarize');
    mkdirSync(root, { recursive: true });
    const baseline = { 't/a.py::x': 'passed', 't/b.py::y': 'passed', 't/b.py::z': 'passed', 't/c.py::w': 'failed' };
    writeFileSync(join(root, 'o.json'), JSON.stringify(baseline));
    writeFileSync(join(root, 't.json'), JSON.stringify({ 't/b.py::y': 'failed' }));
    writeFileSync(join(root, 't.log'), 'FAILED t/b.py::y - AssertionError: no\n');
    const args = ['--kind', 'pytest', '--log', 't.log', '--statuses', 't.json', '--baseline', 'o.json', '--ran', 't/b.py'];
    const out = execFileSync('python3', [SUMMARIZE, ...args], { cwd: root, encoding: 'utf8' });
    // t/b.py::z ran in the selected file and is absent: really missing. t/a.py and t/c.py did not run: their clean statuses.
    expect(out.split('\n').filter((line) => line.startsWith('@@broken'))).toEqual(['@@broken t/b.py::y\tAssertionError\t-', '@@broken t/b.py::z\tmissing\t-']);
    expect(out).toContain('@@run passed=1 failed=2');
    expect(JSON.parse(readFileSync(join(root, 't.json'), 'utf8'))).toEqual({ 't/b.py::y': 'failed', 't/a.py::x': 'passed', 't/c.py::w': 'failed' });
  });
});
