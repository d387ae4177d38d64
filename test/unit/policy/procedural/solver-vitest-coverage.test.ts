import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsTestFiles } from '../../../../src/harness/js-test-files.js';
import { jsReportScript, vitestCoverageScript } from '../../../../src/policy/procedural/solver/js-commands.js';
import { readRunReport } from '../../../../src/policy/procedural/solver/read-run-report.js';
import { testRunCommand, VITEST_COVERAGE_PATH } from '../../../../src/policy/procedural/solver/solver-commands.js';
import { packagePath } from '../../../../src/util/package-root.js';

/**
 * Per-test coverage under Vitest: the setup-file hook maps V8 coverage of vite-node's transformed
 * TypeScript back to the .ts lines through the inline source map. Run here with ssr's own Vitest
 * (the sandbox runs the repo's); the lines must be the TypeScript file's, not the transform's.
 */
describe('js_report.py with Vitest coverage: real Vitest, a TypeScript module', () => {
  const repo = mkdtempSync(join(tmpdir(), 'ssr-vitest-cov-'));
  const report = (extra: string[]): string =>
    execFileSync('python3', ['report.py', '--log', 'run.log', '--parser', 'parser.py', '--runner', 'vitest', '--exit', '1', '--cov-dir', 'cov', '--cov-tests', '40', '--cov-seconds', '120', ...extra], {
      cwd: repo,
      encoding: 'utf8',
    });

  beforeAll(() => {
    mkdirSync(join(repo, 'src'));
    mkdirSync(join(repo, 'test'));
    mkdirSync(join(repo, 'solver'));
    symlinkSync(packagePath('node_modules'), join(repo, 'node_modules'));
    writeFileSync(join(repo, 'package.json'), '{ "name": "take", "type": "module", "private": true }\n');
    writeFileSync(join(repo, 'src', 'take.ts'), [
      'export interface Window { size: number }',
      '',
      'const EMPTY: number[] = [];',
      '',
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
    writeFileSync(join(repo, 'test', 'take.test.ts'), [
      "import { describe, expect, it } from 'vitest';",
      "import { firstN, lastN } from '../src/take.js';",
      '',
      "describe('take', () => {",
      "  it('firstN takes the first', () => expect(firstN([1, 2, 3], 2)).toEqual([1, 2]));",
      "  it('lastN takes the last', () => expect(lastN([1, 2, 3], 2)).toEqual([2, 3]));",
      "  it('lastN of nothing', () => expect(lastN([1, 2, 3], 0)).toEqual([]));",
      '});',
      '',
    ].join('\n'));
    writeFileSync(join(repo, 'solver', 'vitest_coverage.mjs'), vitestCoverageScript());
    writeFileSync(join(repo, 'parser.py'), readJsTestFiles('vitest').testParser);
    writeFileSync(join(repo, 'report.py'), jsReportScript());
    // The run as the Solver's run script prints it; the parser names files relative to /repo.
    try {
      execFileSync('node_modules/.bin/vitest', ['run', '--reporter=json', '--outputFile=report.json', '--color=false', 'test/take.test.ts'], { cwd: repo, stdio: 'ignore' });
    } catch {
      // One test fails: Vitest exits 1.
    }
    const json = readFileSync(join(repo, 'report.json'), 'utf8').replaceAll(repo, '/repo');
    writeFileSync(join(repo, 'run.log'), `ssr-json-report-begin\n${json}\nssr-json-report-end\n`);
  }, 120_000);
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('ranks the .ts line only the failing test runs first, from one coverage run of its file', () => {
    const output = report(['--vitest-coverage', 'solver/vitest_coverage.mjs']);
    expect(output).not.toContain('#spectrum-static');
    const parsed = readRunReport(output)!;
    expect(parsed.failing).toEqual(['test/take.test.ts > take > lastN takes the last']);
    const spectrum = parsed.spectrum!;
    // Every test of the failing test's file joins the spectrum: 1 failing, 2 passing.
    expect(spectrum).toMatchObject({ totalFailed: 1, totalPassed: 2, unmatched: 0 });
    const only = spectrum.lines.filter((line) => line.failed === 1 && line.passed === 0).map((line) => `${line.file}:${line.line}`);
    expect(only).toEqual(['src/take.ts:11']);
    // lastN's guard ran in both lastN tests; firstN's body in none of the failing ones.
    expect(spectrum.lines).toContainEqual({ file: 'src/take.ts', line: 10, failed: 1, passed: 1 });
    expect(spectrum.lines.map((line) => line.line)).not.toContain(6);
    // The module constant ran at import only; the test file is never a code line.
    expect(spectrum.importLines).toContainEqual({ file: 'src/take.ts', line: 3 });
    expect(spectrum.lines.every((line) => line.file === 'src/take.ts')).toBe(true);
  }, 120_000);

  it('falls back to the static spectrum when the coverage run records nothing', () => {
    const output = report(['--vitest-coverage', 'solver/missing.mjs']);
    expect(output).toContain('#spectrum-static no-coverage-of-code');
    expect(readRunReport(output)!.spectrum!.lines.map((line) => line.line)).toContain(11);
  }, 60_000);

  it('is what the Solver asks for on a Vitest repo only', () => {
    const command = (runner: 'vitest' | 'jest') => testRunCommand({ targets: [], coverage: true, tracebacks: 'short', timeoutS: 60, runner });
    expect(command('vitest')).toContain(`--vitest-coverage ${VITEST_COVERAGE_PATH}`);
    expect(command('jest')).not.toContain('--vitest-coverage');
  });
});

/**
 * Jest (and Vitest) write stacks source-mapped to the .ts lines into the JSON report's
 * failureMessages: a throw inside the code gives its frame, innermost first, one block per
 * failing test. A recorded Jest-shaped report, no Jest needed.
 */
describe('js_report.py on a Jest-shaped JSON report: frames of a throw in .ts code', () => {
  const repo = mkdtempSync(join(tmpdir(), 'ssr-jest-frames-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('reads the innermost code frame of each failing test, never a test file or node_modules', () => {
    mkdirSync(join(repo, 'src'));
    mkdirSync(join(repo, 'test'));
    writeFileSync(join(repo, 'src', 'parse.ts'), Array.from({ length: 12 }, (_, i) => `// line ${i + 1}`).join('\n'));
    writeFileSync(join(repo, 'src', 'use.ts'), Array.from({ length: 12 }, (_, i) => `// line ${i + 1}`).join('\n'));
    const stack = (lines: string[]) => ['RangeError: bad duration', ...lines.map((line) => `    at ${line}`)].join('\n');
    const failed = (title: string, message: string) => ({ ancestorTitles: ['parse'], title, status: 'failed', failureMessages: [message] });
    const report = {
      testResults: [{
        name: '/repo/test/parse.test.ts',
        assertionResults: [
          failed('throws', stack([`parse (${repo}/src/parse.ts:7:11)`, `use (${repo}/src/use.ts:3:5)`, `Object.<anonymous> (${repo}/test/parse.test.ts:9:5)`, `run (${repo}/node_modules/jest-circus/build/run.js:1:1)`])),
          failed('throws too', stack([`parse (${repo}/src/parse.ts:7:11)`, `Object.<anonymous> (${repo}/test/parse.test.ts:14:5)`])),
          { ancestorTitles: ['parse'], title: 'passes', status: 'passed', failureMessages: [] },
        ],
      }],
    };
    writeFileSync(join(repo, 'run.log'), `ssr-json-report-begin\n${JSON.stringify(report)}\nssr-json-report-end\n`);
    writeFileSync(join(repo, 'parser.py'), readJsTestFiles('jest').testParser);
    writeFileSync(join(repo, 'report.py'), jsReportScript());
    const output = execFileSync('python3', ['report.py', '--log', 'run.log', '--parser', 'parser.py', '--runner', 'jest', '--exit', '1'], { cwd: repo, encoding: 'utf8' });
    const parsed = readRunReport(output)!;
    expect(parsed.failing).toEqual(['test/parse.test.ts > parse > throws', 'test/parse.test.ts > parse > throws too']);
    expect(parsed.frames).toEqual([
      { file: 'src/parse.ts', line: 7, tests: 2, deepest: 2 },
      { file: 'src/use.ts', line: 3, tests: 1, deepest: 0 },
    ]);
  });
});
