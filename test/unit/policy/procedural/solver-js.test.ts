import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsTestFiles } from '../../../../src/harness/js-test-files.js';
import { jsReportScript, jsRunScript } from '../../../../src/policy/procedural/solver/js-commands.js';
import { readRunReport } from '../../../../src/policy/procedural/solver/read-run-report.js';
import { attemptRunCommand, JS_REPORT_PATH, JS_RUN_PATH, testRunCommand } from '../../../../src/policy/procedural/solver/solver-commands.js';
import { chooseRunner, readProbe, runnerInPrompt } from '../../../../src/policy/procedural/solver/solver-runner.js';
import { testSelectors } from '../../../../src/policy/procedural/solver/try-repair.js';

const probe = (lines: string[]) => readProbe(lines.join('\n'));

describe('chooseRunner: the runner the Solver runs the tests with', () => {
  it.each([
    ['a Python repo', probe(['#probe file pyproject.toml']), [], '', 'pytest'],
    ['Python test files, whatever else the repo has', probe(['#probe file package.json', '#probe deps jest']), ['tests/test_a.py'], '', 'pytest'],
    ['node --test in scripts.test', probe(['#probe file package.json', '#probe deps escape-string-regexp', '#probe test node --test']), ['test/a.test.mjs'], '', 'node-test'],
    ['vitest before jest in the dependencies', probe(['#probe file package.json', '#probe deps jest vitest']), [], '', 'vitest'],
    ['jest', probe(['#probe file package.json', '#probe deps jest ts-jest']), ['src/a.test.ts'], '', 'jest'],
    ['node-tap (the `tap` package)', probe(['#probe file package.json', '#probe deps tap']), [], '', 'node-tap'],
    ['mocha named only in scripts.test', probe(['#probe file package.json', '#probe test nyc mocha']), [], '', 'mocha'],
    ['a package.json that names nothing: node:test', probe(['#probe file package.json']), [], '', 'node-test'],
    ['a package.json beside setup.py, no task files: Python', probe(['#probe file package.json', '#probe file setup.py']), [], '', 'pytest'],
    ['the prompt naming one runner wins', probe(['#probe file package.json', '#probe deps jest']), [], 'Its tests run with vitest.', 'vitest'],
  ] as const)('%s', (_label, repo, files, prompt, expected) => {
    expect(chooseRunner(repo, files, prompt)).toBe(expected);
  });

  it('reads a runner from prose only, and only when the prompt names one', () => {
    expect(runnerInPrompt('The tests run with node:test.')).toBe('node-test');
    expect(runnerInPrompt('Runners: jest, vitest or mocha.')).toBeUndefined();
    // The task's diff names runners and plain words by the way: it does not count.
    expect(runnerInPrompt("Fix it.\n\n```diff\n+import { it } from 'vitest';\n+it('measures tape', () => {});\n```\n")).toBeUndefined();
  });
});

describe('the Solver on a JS repo: commands', () => {
  it('runs the repo runner through its run script and reports with the JS report script', () => {
    const command = testRunCommand({ targets: ['test/a.test.mjs'], coverage: true, tracebacks: 'short', timeoutS: 60, runner: 'node-test', restore: ['src/a.mjs'] });
    expect(command).toContain(`bash ${JS_RUN_PATH} test/a.test.mjs > `);
    expect(command).toContain(`python3 ${JS_REPORT_PATH} --parser`);
    expect(command).toContain('--runner node-test');
    expect(command).toContain('--cov-tests');
    expect(command).not.toContain('pytest');
    // Coverage reruns see the code with the edit: the undo comes after the report.
    expect(command.indexOf('--cov-dir')).toBeLessThan(command.indexOf('cp '));
    const attempt = attemptRunCommand({ failing: ['test/a.test.mjs'], failedCount: 2, scope: [], quickTimeoutS: 10, fullTimeoutS: 20, restore: ['src/a.mjs'], runner: 'jest' });
    expect(attempt).toContain('--runner jest --log');
    expect(attempt).not.toContain('--cov-dir');
  });

  it('reruns failing JS tests by their files, pytest ones by their functions', () => {
    expect(testSelectors(['test/a.test.mjs > chunk > splits', 'test/a.test.mjs > chunk > keeps', 'test/b.test.mjs'], 'node-test')).toEqual(['test/a.test.mjs', 'test/b.test.mjs']);
    expect(testSelectors(['tests/test_a.py::test_x[1]', 'tests/test_a.py::test_x[2]'])).toEqual(['tests/test_a.py::test_x']);
  });

  it('gives every runner a run script that falls back to the whole suite', () => {
    for (const runner of ['jest', 'vitest', 'mocha', 'node-test', 'tape', 'node-tap'] as const) {
      const script = jsRunScript(runner, '/ssr/solver/suite.sh');
      expect(script).toContain('[ "$#" -eq 0 ] && exec bash /ssr/solver/suite.sh');
      expect(script).toContain('"$@"');
    }
  });
});

describe('js_report.py on a real node:test run (host Node, real V8 coverage)', () => {
  const repo = mkdtempSync(join(tmpdir(), 'ssr-js-report-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  mkdirSync(join(repo, 'src'));
  mkdirSync(join(repo, 'test'));
  // `last` has the bug (`- 2`); `first` and `sum` are fine and tested by passing tests.
  writeFileSync(join(repo, 'src', 'lib.mjs'), [
    'export const ANSWER = 42;',
    'export function first(xs) {',
    '  return xs[0];',
    '}',
    'export function last(xs) {',
    '  const n = xs.length;',
    '  return xs[n - 2];',
    '}',
    'export function sum(xs) {',
    '  let total = 0;',
    '  for (const x of xs) total += x;',
    '  return total;',
    '}',
    'export function boom() {',
    "  throw new Error('boom');",
    '}',
    '',
  ].join('\n'));
  writeFileSync(join(repo, 'test', 'lib.test.mjs'), [
    "import { describe, it } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { boom, first, last, sum } from '../src/lib.mjs';",
    "describe('lib', () => {",
    "  it('first', () => assert.equal(first([1, 2, 3]), 1));",
    "  it('last', () => assert.equal(last([1, 2, 3]), 3));",
    "  it('sum', () => assert.equal(sum([1, 2, 3]), 6));",
    "  it('boom', () => assert.equal(boom(), 1));",
    '});',
    '',
  ].join('\n'));
  writeFileSync(join(repo, 'parser.py'), readJsTestFiles('node-test').testParser);
  writeFileSync(join(repo, 'report.py'), jsReportScript());

  it('reports outcomes, the frame of a throw, and ranks the bug line first by Ochiai over single-test coverage', () => {
    let log: string;
    try {
      log = execFileSync('node', ['--test', '--test-reporter=tap', 'test/lib.test.mjs'], { cwd: repo, encoding: 'utf8' });
    } catch (error) {
      log = (error as { stdout: string }).stdout;
    }
    writeFileSync(join(repo, 'run.log'), `ssr-test-file: test/lib.test.mjs\n${log}`);
    const output = execFileSync('python3', ['report.py', '--log', 'run.log', '--parser', 'parser.py', '--runner', 'node-test', '--exit', '1', '--cov-dir', 'cov', '--cov-tests', '10'], { cwd: repo, encoding: 'utf8' });
    const report = readRunReport(output)!;
    expect(report).toMatchObject({ finished: true, passed: 2, failedCount: 2 });
    expect(report.failing).toEqual(['test/lib.test.mjs > lib > boom', 'test/lib.test.mjs > lib > last']);
    // The throw surfaced in src/lib.mjs line 15: the innermost code frame of its test.
    expect(report.frames).toContainEqual({ file: 'src/lib.mjs', line: 15, tests: 1, deepest: 1 });
    const spectrum = report.spectrum!;
    expect(spectrum).toMatchObject({ totalFailed: 2, totalPassed: 2, unmatched: 0 });
    const top = spectrum.lines.filter((line) => line.failed > 0 && line.passed === 0).map((line) => line.line);
    expect(top).toEqual(expect.arrayContaining([6, 7, 15]));
    // Lines only passing tests ran are not in the spectrum; the module's own lines ran at import.
    expect(spectrum.lines.map((line) => line.line)).not.toContain(3);
    expect(spectrum.lines.map((line) => line.line)).not.toContain(11);
    expect(spectrum.importLines).toContainEqual({ file: 'src/lib.mjs', line: 1 });
    expect(spectrum.lines.every((line) => line.file === 'src/lib.mjs')).toBe(true);
  }, 60_000);

  it('finds the frames of a nonce-tagged log too (the harness scripts tag every counted TAP line)', () => {
    let log: string;
    try {
      log = execFileSync('node', ['--test', '--test-reporter=tap', 'test/lib.test.mjs'], { cwd: repo, encoding: 'utf8' });
    } catch (error) {
      log = (error as { stdout: string }).stdout;
    }
    const nonce = '0123456789abcdef0123456789abcdef';
    const tagged = `ssr-test-file: test/lib.test.mjs\n${log}`.split('\n').map((line) => `${nonce} ${line}`).join('\n');
    writeFileSync(join(repo, 'tagged.log'), `ssr-tap-commit: ${createHash('sha256').update(nonce).digest('hex')}\n${tagged}\nssr-tap-nonce: ${nonce}\n`);
    const output = execFileSync('python3', ['report.py', '--log', 'tagged.log', '--parser', 'parser.py', '--runner', 'node-test', '--exit', '1'], { cwd: repo, encoding: 'utf8' });
    const report = readRunReport(output)!;
    expect(report.failing).toEqual(['test/lib.test.mjs > lib > boom', 'test/lib.test.mjs > lib > last']);
    expect(report.frames).toContainEqual({ file: 'src/lib.mjs', line: 15, tests: 1, deepest: 1 });
  }, 60_000);
});

describe('js_report.py without coverage (Vitest): a static spectrum by name', () => {
  const repo = mkdtempSync(join(tmpdir(), 'ssr-js-static-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  mkdirSync(join(repo, 'src'));
  mkdirSync(join(repo, 'test'));
  writeFileSync(join(repo, 'src', 'take.ts'), [
    'export function firstN<T>(xs: T[], n: number): T[] {',
    '  return xs.slice(0, n);',
    '}',
    '',
    'export const lastN = <T>(xs: T[], n: number): T[] => {',
    '  if (n <= 0) return [];',
    '  return xs.slice(xs.length - n + 1);',
    '};',
    '',
  ].join('\n'));
  writeFileSync(join(repo, 'src', 'other.ts'), 'export function lastN() {\n  return 1;\n}\n');
  writeFileSync(join(repo, 'test', 'take.test.ts'), "import { firstN, lastN } from '../src/take.js';\n");
  writeFileSync(join(repo, 'parser.py'), readJsTestFiles('node-test').testParser);
  writeFileSync(join(repo, 'report.py'), jsReportScript());
  // The TAP parser stands in for Vitest's JSON one: the static spectrum needs only the ids.
  writeFileSync(join(repo, 'run.log'), [
    'ssr-test-file: test/take.test.ts',
    '# Subtest: lastN', '    # Subtest: takes the last', '    not ok 1 - takes the last', '    1..1', 'not ok 1 - lastN',
    '# Subtest: firstN', '    # Subtest: takes the first', '    ok 1 - takes the first', '    1..1', 'ok 2 - firstN',
    '',
  ].join('\n'));

  it('ranks the lines of the function the failing test names, in the module its test file imports', () => {
    const output = execFileSync('python3', ['report.py', '--log', 'run.log', '--parser', 'parser.py', '--runner', 'vitest', '--exit', '1', '--cov-dir', 'cov', '--cov-tests', '10'], { cwd: repo, encoding: 'utf8' });
    expect(output).toContain('#spectrum-static vitest-transforms-code');
    const report = readRunReport(output)!;
    expect(report.failing).toEqual(['test/take.test.ts > lastN > takes the last']);
    expect(report.spectrum!.lines.map((line) => `${line.file}:${line.line}`)).toEqual(['src/take.ts:5', 'src/take.ts:6', 'src/take.ts:7', 'src/take.ts:8']);
  });
});
