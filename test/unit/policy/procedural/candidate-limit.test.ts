import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultsDir } from '../../../../src/harness/default-files.js';
import type { BugCandidate } from '../../../../src/policy/procedural/injector/bug-candidate.js';
import { candidateLimitS, expectedRunS, updatePace } from '../../../../src/policy/procedural/injector/candidate-limit.js';
import type { CandidateTests, TestCoverage } from '../../../../src/policy/procedural/injector/covering-tests.js';
import { candidateMaxFail } from '../../../../src/policy/procedural/injector/early-stop.js';
import { findBug } from '../../../../src/policy/procedural/injector/find-bug.js';
import { assetsDir } from '../../../../src/policy/procedural/injector/injector-assets.js';
import { runCommand } from '../../../../src/policy/procedural/injector/injector-commands.js';
import { judgeAttempt } from '../../../../src/policy/procedural/injector/judge-attempt.js';
import type { RepoFacts } from '../../../../src/policy/procedural/injector/repo-facts.js';
import { parseRunSummary } from '../../../../src/policy/procedural/injector/run-summary.js';
import type { Observation } from '../../../../src/policy/procedural/observation.js';
import type { ProgramContext, ProgramStep } from '../../../../src/policy/procedural/program.js';

const LOG = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'logs', 'pytest-durations-maxfail.txt');
const BREADTH = { maxFailingTests: 40, maxFailingFiles: 8 };

/** A clean run of 2 s: t/a.py's tests took 0.2 s, t/b.py's 1.2 s, t/c.py (dirty: 1 failing) none listed. */
function facts(clean = '@@durations 2\n@@dur t/a.py 0.200\n@@dur t/b.py 1.200'): RepoFacts {
  const baseline = parseRunSummary(
    ['@@exit 1', '@@ms 2000', '@@run passed=14 failed=1', '@@group t/a.py passed=5 failed=0', '@@group t/b.py passed=6 failed=0', '@@group t/c.py passed=3 failed=1', clean].join('\n'),
  )!;
  const perFile = new Map([['t/a.py', { passed: 5, failed: 0 }], ['t/b.py', { passed: 6, failed: 0 }], ['t/c.py', { passed: 3, failed: 1 }]]);
  return { sourceFiles: new Map(), testFiles: new Set(perFile.keys()), codeFiles: ['m.py'], suite: { kind: 'pytest' }, baseline, perFile, coverage: null, runLimitS: 16 };
}
const ONLY_A: CandidateTests = { status: 'restricted', files: ['t/a.py'] };
const FULL: CandidateTests = { status: 'full', reason: 'x' };

describe('pytest durations and early stops, read from a real log', () => {
  it('summarize_run.py adds up each test file\'s durations; the run command reports where pytest stopped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssr-cand-limit-'));
    const log = readFileSync(LOG, 'utf8');
    writeFileSync(join(dir, 't.log'), log);
    const statuses = execFileSync('python3', [join(defaultsDir(), 'test_parser.py')], { input: log, encoding: 'utf8' });
    // The durations section and the stop line leave the parser's statuses as they are.
    expect(JSON.parse(statuses)).toEqual({ 'tests/test_quick.py::test_a': 'failed', 'tests/test_slow.py::test_slow_one': 'passed', 'tests/test_slow.py::test_slow_two': 'failed' });
    writeFileSync(join(dir, 't.json'), statuses);
    const out = execFileSync('python3', [join(assetsDir(), 'scripts', 'summarize_run.py'), '--kind', 'pytest', '--log', 't.log', '--statuses', 't.json'], { cwd: dir, encoding: 'utf8' });
    // test_slow.py: 0.30 + 0.20 s; test_quick.py's tests were all under pytest's 5 ms listing threshold.
    expect(out).toContain('@@durations 1\n@@dur tests/test_slow.py 0.500\n');
    expect([...parseRunSummary(out)!.durations]).toEqual([['tests/test_slow.py', 0.5]]);
    const command = runCommand({ kind: 'pytest' }, 't', { timeoutS: 5, pytest: { maxFail: 2 } });
    expect(command).toContain('--maxfail=2');
    const stopLine = command.split('\n').find((line) => line.startsWith('sed '))!.replace('/tmp/ssr_work/t.log', join(dir, 't.log'));
    expect(execFileSync('bash', ['-c', stopLine], { encoding: 'utf8' })).toBe('@@stopped 2\n');
  });

  it('durations cut short by an output\'s left-out middle are not trusted', () => {
    expect(facts('@@durations 3\n@@dur t/a.py 0.200').baseline.durations.size).toBe(0);
  });
});

describe('candidateLimitS: a candidate run\'s limit from its own tests\' clean time', () => {
  it('is start-up plus the selected files\' durations, times 6, plus 2 s; never under 5 s nor the clean run, never over the run limit', () => {
    // Start-up 2 − 1.4 = 0.6 s; t/a.py 0.2 s: 6 × 0.8 + 2 = 6.8 → 7 s (was 16 s).
    expect(expectedRunS(facts(), ONLY_A)).toBeCloseTo(0.8);
    expect(candidateLimitS(facts(), ONLY_A, { slowdown: 1 })).toBe(7);
    expect(candidateLimitS(facts(), FULL, { slowdown: 1 })).toBe(14);
    // No durations (unittest, JS, an old memo): the whole clean run's time.
    expect(candidateLimitS(facts(''), ONLY_A, { slowdown: 1 })).toBe(14);
    expect(candidateLimitS(facts(), FULL, { slowdown: 4 })).toBe(16);
    // t/a.py holds the slow tests: 0.3 + 1.7 s.
    expect(candidateLimitS(facts('@@durations 1\n@@dur t/a.py 1.700'), ONLY_A, { slowdown: 1 })).toBe(14);
    // A quick suite: 6 × 0.3 + 2 = 3.8 s, raised to the 5 s floor.
    expect(candidateLimitS({ ...facts(), baseline: parseRunSummary('@@ms 300\n@@run passed=1 failed=0')! }, ONLY_A, { slowdown: 1 })).toBe(5);
    const untimed = { ...facts(), baseline: parseRunSummary('@@run passed=1 failed=0')! };
    expect(candidateLimitS(untimed, ONLY_A, { slowdown: 1 })).toBe(16);
  });

  it('grows with the episode\'s pace: a slow finished run, a timeout', () => {
    const pace = { slowdown: 1 };
    updatePace(pace, facts(), ONLY_A, parseRunSummary('@@exit 1\n@@ms 2000\n@@run passed=1 failed=1')!);
    expect(pace.slowdown).toBe(1);
    // 6 s for a 0.8 s estimate: the next such run may take twice 6 s plus the slack.
    updatePace(pace, facts(), ONLY_A, parseRunSummary('@@exit 1\n@@ms 6000\n@@run passed=1 failed=1')!);
    expect(pace.slowdown).toBeCloseTo(2.5);
    expect(candidateLimitS(facts(), ONLY_A, pace)).toBe(14);
    updatePace(pace, facts(), ONLY_A, parseRunSummary('@@exit 124\n@@ms 9000\n@@run passed=0 failed=0')!);
    expect(pace.slowdown).toBeCloseTo(3.75);
  });

  it('a crowded machine stretches the limit by its load per core, never past the suite\'s run limit', () => {
    expect(candidateLimitS(facts(), ONLY_A, { slowdown: 1, crowding: () => 1 })).toBe(7);
    // 6 × 0.8 × 2 + 2 = 11.6 → 12 s at twice as many runnable tasks as cores.
    expect(candidateLimitS(facts(), ONLY_A, { slowdown: 1, crowding: () => 2 })).toBe(12);
    // The pace and the crowding are not multiplied: the slower of the two sets the limit.
    expect(candidateLimitS(facts(), ONLY_A, { slowdown: 2, crowding: () => 1.5 })).toBe(12);
    expect(candidateLimitS(facts(), ONLY_A, { slowdown: 1, crowding: () => 40 })).toBe(facts().runLimitS);
  });
});

describe('candidateMaxFail: a stop only a rejected change reaches', () => {
  it('counts the failures an accepted change can cause in the run\'s files, twice (a call and a teardown), plus one', () => {
    // t/a.py: clean, none failing before: 2 × 40 + 1.
    expect(candidateMaxFail(facts(), ONLY_A, BREADTH)).toBe(81);
    // Whole suite: 1 failing before, t/c.py's 3 passing tests are no oracle tests: 2 × (1 + 43) + 1.
    expect(candidateMaxFail(facts(), FULL, BREADTH)).toBe(89);
    expect(candidateMaxFail(facts(), FULL, { maxFailingTests: 100, maxFailingFiles: 8 })).toBe(2 * (1 + 60) + 1);
    expect(candidateMaxFail({ ...facts(), suite: { kind: 'unittest', startDir: '.' } }, FULL, BREADTH)).toBeUndefined();
  });

  it('judgeAttempt rejects a run that timed out or stopped early, whatever failed before', () => {
    const failing = '@@run passed=4 failed=1\n@@broken t/a.py::t1\tAssertionError\t3';
    expect(judgeAttempt(parseRunSummary(`@@exit 1\n${failing}`), facts(), 1, BREADTH)).toMatchObject({ status: 'accepted' });
    expect(judgeAttempt(parseRunSummary(`@@exit 124\n${failing}`), facts(), 1, BREADTH)).toEqual({ status: 'rejected', reason: 'the run timed out' });
    expect(judgeAttempt(parseRunSummary(`@@exit 1\n@@stopped 81\n${failing}`), facts(), 1, BREADTH)).toMatchObject({ status: 'rejected', reason: expect.stringContaining('stopped after 81 failures') });
  });
});

describe('findBug runs each candidate under its own limit', () => {
  const coverage: TestCoverage = { testFiles: new Set(['t/a.py', 't/b.py', 't/c.py']), lines: new Map([['m.py', new Map([[3, new Set(['t/a.py'])]])]]) };
  const candidate = (name: string): BugCandidate => ({
    file: 'm.py', record: { operator: name, kind: 'removal', file: 'm.py', line: 3, endLine: 3, description: name },
    apply: { type: 'edit', edit: { search: 'x', replace: name } }, rationale: name,
  });
  const observe = (text: string): Observation => ({ tool: 'bash', text, ok: true, exitCode: 0, timedOut: false, turnsLeft: 100, tokensLeft: 100_000, raw: text });
  const command = (step: ProgramStep): string => (step.args as { command: string }).command;

  it('a run that loops is cut at the candidate\'s limit and rejected; the next limit grows', async () => {
    const ctx = { budget: { turnsLeft: 100, tokensLeft: 100_000 } } as ProgramContext;
    const search = findBug(ctx, [candidate('loops'), candidate('breaks')], { facts: facts(), minChangedFiles: 1, minFailingTests: 1, breadth: BREADTH, maxAttempts: 5, coverage, reserveTurns: 0 });
    const first = (await search.next()).value as ProgramStep;
    expect(command(first)).toContain('timeout --kill-after=5 7 ');
    expect(command(first)).toContain('--maxfail=81 t/a.py');
    // Killed at the limit with one behavioural failure seen so far: not a bug to keep.
    const second = (await search.next(observe('@@edited 1\n@@exit 124\n@@ms 7004\n@@run passed=4 failed=1\n@@broken t/a.py::t1\tAssertionError\t3'))).value as ProgramStep;
    expect(command(second)).toContain('cand_1.diff');
    expect(command(second)).toContain('timeout --kill-after=5 10 ');
    const confirm = (await search.next(observe('@@edited 1\n@@exit 1\n@@ms 900\n@@run passed=4 failed=1\n@@broken t/a.py::t1\tAssertionError\t3'))).value as ProgramStep;
    expect(command(confirm)).toContain('@@buggy-reused');
    const done = await search.next(observe('@@buggy-reused'));
    expect(done).toMatchObject({ done: true, value: { attempts: 2, behavioural: ['t/a.py::t1'] } });
  });
});
