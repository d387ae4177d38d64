import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../../src/policy/procedural/solver/compare-runs.js';
import { FRAME_BONUS, IMPORT_FACTOR, ochiai, rankLines } from '../../../../src/policy/procedural/solver/rank-lines.js';
import { readRunReport } from '../../../../src/policy/procedural/solver/read-run-report.js';
import { REPORT_SCRIPT } from '../../../../src/policy/procedural/solver/report-script.js';
import type { RunReport } from '../../../../src/policy/procedural/solver/run-report.js';
import { seededRng } from '../../../../src/util/seeded-rng.js';

// A real pytest 7.2 log and coverage 6.5 JSON (contexts per test function) of sample/, made in the
// sandbox image by generate.sh. sample/shop/pricing.py has two bugs: line 6 and line 26.
const FIXTURES = join(import.meta.dirname, '../../../fixtures/coverage');
const id = (name: string): string => `tests/test_pricing.py::${name}`;

/** Runs the report script with the host's python3 (stdlib only), as the Solver does in the sandbox. */
function report(...args: string[]): string {
  return execFileSync('python3', ['-c', REPORT_SCRIPT, '--log', 'pytest.log', '--exit', '1', '--seconds', '3', ...args], { cwd: FIXTURES, encoding: 'utf8' });
}

describe('the report script on a real pytest log and coverage JSON', () => {
  const parsed = readRunReport(report('--cov', 'coverage.json'))!;

  it('lists the failing tests and counts the passing ones', () => {
    expect(parsed).toMatchObject({ exitCode: 1, seconds: 3, finished: true, passed: 6, failedCount: 4 });
    expect(parsed.failing).toEqual([
      id('TestAverage::test_average_of_two'),
      id('TestAverage::test_empty_average_is_zero'),
      id('TestDiscount::test_hundred_items_get_twenty_percent'),
      id('test_total[100-400.0]'),
    ]);
  });

  it('keeps only code frames of the tracebacks', () => {
    // The ZeroDivisionError surfaced in average(); test-file frames are left out.
    expect(parsed.frames).toEqual([{ file: 'shop/pricing.py', line: 26, tests: 1, deepest: 1 }]);
  });

  it('builds the spectrum of the lines failing tests executed, matching tests to coverage contexts', () => {
    const spectrum = parsed.spectrum!;
    // Tests, not cases: test_total counts once, failed (one of its cases failed).
    expect(spectrum).toMatchObject({ totalFailed: 4, totalPassed: 4, unmatched: 0 });
    expect(spectrum.importLines.map((l) => l.line)).toEqual([1, 4, 13, 20, 25]);
    const counts = Object.fromEntries(spectrum.lines.map((l) => [`${l.file}:${l.line}`, [l.failed, l.passed]]));
    expect(counts).toEqual({
      'shop/pricing.py:6': [2, 3],
      'shop/pricing.py:8': [2, 3],
      'shop/pricing.py:9': [2, 2],
      'shop/pricing.py:10': [1, 2],
      'shop/pricing.py:14': [1, 1],
      'shop/pricing.py:16': [1, 0],
      'shop/pricing.py:17': [1, 0],
      'shop/pricing.py:26': [2, 0],
    });
  });

  it('cuts the spectrum most suspicious first, and the failing list at --max-failed', () => {
    const cut = readRunReport(report('--cov', 'coverage.json', '--limit', '2', '--max-failed', '1'))!;
    expect(cut.spectrum!.lines.map((l) => l.line)).toEqual([26, 9]);
    expect(cut.failing).toHaveLength(1);
    expect(cut.failedCount).toBe(4);
  });

  it('reports a run without coverage, and a missing coverage file, as no spectrum', () => {
    expect(readRunReport(report())!.spectrum).toBeNull();
    expect(readRunReport(report('--cov', 'missing.json'))!.spectrum).toBeNull();
  });

  it('reads the traceback of a suite that crashed before running a test', () => {
    const out = execFileSync('python3', ['-c', REPORT_SCRIPT, '--log', 'crash.log', '--exit', '4'], { cwd: FIXTURES, encoding: 'utf8' });
    const crashed = readRunReport(out)!;
    expect(crashed).toMatchObject({ exitCode: 4, finished: false, passed: 0, failedCount: 0 });
    // conftest.py is a test file; the code frames remain, the raise innermost.
    expect(crashed.frames).toEqual([
      { file: 'shop/__init__.py', line: 1, tests: 1, deepest: 0 },
      { file: 'shop/rates.py', line: 8, tests: 1, deepest: 1 },
      { file: 'shop/rates.py', line: 13, tests: 1, deepest: 0 },
    ]);
  });

  it('says a log without a pytest summary did not finish', () => {
    const out = execFileSync('python3', ['-c', REPORT_SCRIPT, '--log', '/nonexistent.log', '--exit', '124'], { encoding: 'utf8' });
    expect(readRunReport(out)).toMatchObject({ exitCode: 124, finished: false, passed: 0, failedCount: 0 });
  });
});

describe('readRunReport', () => {
  it('returns null when the script never printed its header', () => {
    expect(readRunReport('python3: can\'t open file')).toBeNull();
  });
});

describe('ochiai', () => {
  it.each([
    [{ failed: 2, passed: 0 }, 4, 2 / Math.sqrt(8)],
    [{ failed: 2, passed: 2 }, 4, 0.5],
    [{ failed: 1, passed: 0 }, 1, 1],
    [{ failed: 0, passed: 5 }, 4, 0],
    [{ failed: 1, passed: 1 }, 0, 0],
  ])('%j with %i failing tests → %f', (line, totalFailed, expected) => {
    expect(ochiai(line, totalFailed)).toBeCloseTo(expected, 12);
  });
});

describe('rankLines on the fixture', () => {
  const parsed = readRunReport(report('--cov', 'coverage.json'))!;

  it('puts the line that raised first, then lines by Ochiai, then import-time lines', () => {
    const ranked = rankLines(parsed, seededRng(1));
    expect(ranked[0]).toMatchObject({ file: 'shop/pricing.py', line: 26, frameTests: 1 });
    const scores = ranked.map((l) => l.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const best = 2 / Math.sqrt(8);
    const expected: Record<number, number> = {
      26: best + FRAME_BONUS.deepest,
      9: 0.5, 16: 0.5, 17: 0.5, 6: 2 / Math.sqrt(20), 8: 2 / Math.sqrt(20), 14: 1 / Math.sqrt(8), 10: 1 / Math.sqrt(12),
      // Module level (def lines, the docstring): a fraction of the file's best Ochiai; 25 is also just above the raise.
      1: IMPORT_FACTOR * best, 4: IMPORT_FACTOR * best, 13: IMPORT_FACTOR * best, 20: IMPORT_FACTOR * best,
      25: IMPORT_FACTOR * best + FRAME_BONUS.near,
      23: FRAME_BONUS.near, 24: FRAME_BONUS.near, 27: FRAME_BONUS.near, 28: FRAME_BONUS.near, 29: FRAME_BONUS.near,
    };
    expect(ranked).toHaveLength(Object.keys(expected).length);
    for (const line of ranked) expect(line.score, `line ${line.line}`).toBeCloseTo(expected[line.line]!, 12);
  });

  it('breaks ties by seed, the same way for the same seed', () => {
    const order = (seed: number) => rankLines(parsed, seededRng(seed)).map((l) => l.line).join(',');
    expect(order(7)).toBe(order(7));
    const orders = new Set([1, 2, 3, 4, 5, 6, 7, 8].map(order));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('ranks traceback frames alone when there is no coverage', () => {
    const ranked = rankLines({ spectrum: null, frames: parsed.frames }, seededRng(1));
    expect(ranked[0]).toMatchObject({ line: 26, score: FRAME_BONUS.deepest });
    expect(ranked).toHaveLength(7);
  });
});

const run = (overrides: Partial<RunReport>): RunReport => ({
  exitCode: 1, seconds: 1, finished: true, passed: 8, failing: ['t::a', 't::b'], failedCount: 2, frames: [], spectrum: null, ...overrides,
});

describe('compareRuns', () => {
  const before = run({});
  it.each<[string, Partial<RunReport>, string]>([
    ['fixes one test', { passed: 9, failing: ['t::b'], failedCount: 1 }, 'improved'],
    ['fixes every test', { exitCode: 0, passed: 10, failing: [], failedCount: 0 }, 'improved'],
    ['changes nothing', {}, 'the same tests still fail'],
    ['fixes one, breaks another', { failing: ['t::b', 't::c'], failedCount: 2 }, '1 test(s) that passed now fail'],
    ['makes tests vanish', { exitCode: 2, passed: 3, failing: ['t::a'], failedCount: 1 }, 'fewer tests ran'],
    ['times out', { exitCode: 124, finished: false, passed: 0, failing: [], failedCount: 0 }, 'the tests timed out'],
    ['never prints a summary', { finished: false, passed: 0, failing: [], failedCount: 0 }, 'the test run did not finish'],
  ])('an edit that %s', (_case, after, expected) => {
    const verdict = compareRuns(before, run(after));
    expect(verdict.status === 'improved' ? 'improved' : verdict.reason).toBe(expected);
  });

  it.each<[string, Partial<RunReport>, string]>([
    ['finishes with passing tests', { exitCode: 1, passed: 3, failing: ['t::z'], failedCount: 1 }, 'improved'],
    ['still crashes', { exitCode: 4, finished: false, passed: 0, failing: [], failedCount: 0 }, 'the tests still do not run'],
  ])('from a crashed suite, an edit that %s', (_case, after, expected) => {
    const crashed = run({ exitCode: 4, finished: false, passed: 0, failing: [], failedCount: 0 });
    const verdict = compareRuns(crashed, run(after));
    expect(verdict.status === 'improved' ? 'improved' : verdict.reason).toBe(expected);
  });

  it('judges by counts when the earlier failing list was cut', () => {
    const cut = run({ failing: ['t::a'], failedCount: 300, passed: 0 });
    expect(compareRuns(cut, run({ failing: ['t::z'], failedCount: 200, passed: 100 })).status).toBe('improved');
  });
});

it('the fixture sample still has its two planted bugs', () => {
  const source = readFileSync(join(FIXTURES, 'sample/shop/pricing.py'), 'utf8').split('\n');
  expect(source[5]).toBe('    if quantity > 100:');
  expect(source[25]).toBe('    return sum(prices) / len(prices) if not prices else 0.0');
});
