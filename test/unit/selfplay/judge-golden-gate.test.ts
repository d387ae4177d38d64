import { describe, expect, it } from 'vitest';
import { describeGoldenGate, judgeGoldenGate, MAX_RAISED_LIMIT_MS, type CleanRun } from '../../../src/selfplay/golden-gate/judge-golden-gate.js';

const ID = { repo: 'pyledger', commit: 'c0', image: 'img:1' };
const run = (statuses: Record<string, 'passed' | 'failed'>, overrides: Partial<CleanRun> = {}): CleanRun => ({ statuses, durationMs: 2_000, timedOut: false, ...overrides });
const stable = { 't::a': 'passed', 't::b': 'passed', 't::c': 'failed' } as const;

describe('judgeGoldenGate', () => {
  it.each([
    ['two identical runs: nothing quarantined, the limit kept', [run(stable), run(stable)], { status: 'passed', tests: 3, quarantined: [], testTimeoutMs: 90_000, raisedFromMs: null }],
    [
      'a test that flips, one missing from a run: both quarantined',
      [run({ ...stable, 't::d': 'passed' }), run({ ...stable, 't::b': 'failed' })],
      { status: 'passed', tests: 4, quarantined: ['t::b', 't::d'] },
    ],
    ['a suite that trips the guard: passed, and said', [run(stable, { guardTampered: ['native-code:ctypes.dlopen by pkg/x.py'] }), run(stable)], { status: 'passed', guardTripped: ['native-code:ctypes.dlopen by pkg/x.py'] }],
    ['a suite at exactly half the limit: kept', [run(stable, { durationMs: 45_000 }), run(stable)], { status: 'passed', testTimeoutMs: 90_000, raisedFromMs: null }],
    ['a suite over half the limit: raised to 3× the slower run', [run(stable, { durationMs: 30_000 }), run(stable, { durationMs: 50_200 })], { status: 'passed', testTimeoutMs: 151_000, raisedFromMs: 90_000 }],
  ])('%s', (_name, runs, expected) => {
    expect(judgeGoldenGate(runs as [CleanRun, CleanRun], 90_000, ID)).toMatchObject({ ...ID, ...expected });
  });

  it.each([
    ['a run that timed out', [run(stable), run({}, { timedOut: true, durationMs: 90_000 })], /^repo pyledger: the clean test suite timed out at its 90\.0 s limit: raise limits\.test_timeout_s/],
    ['a parser that failed', [run({}, { parserFailure: 'parser-crashed: boom' }), run(stable)], /gave no test statuses \(parser-crashed: boom\)/],
    ['an empty status map', [run(stable), run({})], /gave no test statuses \(the parser printed an empty map\)/],
    ['a suite that writes its own test file', [run(stable, { materialChanges: ['changed tests/test_gen.py'] }), run(stable)], /writes its own test material \(changed tests\/test_gen\.py\).*tmp_path/],
    ['a suite whose raised limit passes the cap', [run(stable, { durationMs: MAX_RAISED_LIMIT_MS / 2 }), run(stable)], /takes 900\.0 s, more than half its 1000\.0 s limit, and the 2700\.0 s it would need passes the 1800\.0 s cap/],
  ])('refuses the repo: %s', (_name, runs, reason) => {
    const limit = _name.includes('cap') ? 1_000_000 : 90_000;
    const gate = judgeGoldenGate(runs as [CleanRun, CleanRun], limit, ID);
    expect(gate.status).toBe('refused');
    expect(gate.status === 'refused' && gate.reason).toMatch(reason);
  });

  it.each([
    ['a suite pytest found no test in (exit 5)', [run({}, { exitCode: 5, logTail: 'no tests ran in 0.01s' }), run({}, { exitCode: 5 })], /has no tests: pytest collected none \(its log ends: "no tests ran in 0\.01s"\); ssr runs `python3 -m pytest` in \/repo .*add a pytest\.ini .*image\.setup in repos\.yaml/],
    ['a suite that fails: fewer pass in both runs than min_passing_tests', [run({ 't::a': 'failed', 't::b': 'passed' }, { logTail: '1 failed, 1 passed' }), run({ 't::a': 'failed', 't::b': 'passed' })], /the clean test suite fails: 1 of 2 tests pass, fewer than thresholds\.min_passing_tests \(2\).*image\.packages, image\.setup in repos\.yaml.*or lower thresholds\.min_passing_tests/],
    ['a suite whose only passes are flaky', [run({ 't::a': 'passed', 't::b': 'failed' }), run({ 't::a': 'failed', 't::b': 'passed' })], /0 of 2 tests pass/],
    ['a suite killed for memory', [run({}, { killedForMemory: true }), run(stable)], /killed for memory at its 512 MB limit: raise limits\.memory_mb in repos\.yaml/],
  ])('refuses the repo with the repos.yaml field to change: %s', (_name, runs, reason) => {
    const gate = judgeGoldenGate(runs as [CleanRun, CleanRun], 90_000, ID, { minPassingTests: 2, memoryMb: 512 });
    expect(gate.status).toBe('refused');
    expect(gate.status === 'refused' && gate.reason).toMatch(reason);
  });

  it('speaks of the repo\'s JS runner, not pytest, when a JS suite gives no statuses', () => {
    const gate = judgeGoldenGate([run({}, { exitCode: 5 }), run({}, { exitCode: 5 })], 90_000, ID, { minPassingTests: 1, memoryMb: 512, runner: 'jest' });
    expect(gate.status === 'refused' && gate.reason).toMatch(/gave no test statuses .*its script and parser for jest.*test\.runner in repos\.yaml/);
    expect(gate.status === 'refused' && gate.reason).not.toMatch(/pytest/);
  });

  it('says the sandbox has no network when a failing run\'s log shows a test reaching another host', () => {
    const failing = { 'test/a.test.js > fetches': 'failed', 'test/a.test.js > adds': 'passed' } as const;
    const gate = judgeGoldenGate([run(failing, { networkFailure: 'getaddrinfo ENOTFOUND registry.npmjs.org' }), run(failing)], 90_000, ID, { minPassingTests: 2, memoryMb: 512, runner: 'node-test' });
    expect(gate.status === 'refused' && gate.reason).toMatch(/1 of 2 tests pass.*its log shows a test reaching the network \(getaddrinfo ENOTFOUND registry\.npmjs\.org\), and sandboxes run tests without network .*mock those calls/);
    const quiet = judgeGoldenGate([run(failing), run(failing)], 90_000, ID, { minPassingTests: 2, memoryMb: 512 });
    expect(quiet.status === 'refused' && quiet.reason).not.toMatch(/network/);
  });

  it('passes a suite with exactly min_passing_tests stable passes (failures beside them are fine)', () => {
    expect(judgeGoldenGate([run(stable), run(stable)], 90_000, ID, { minPassingTests: 2, memoryMb: 512 }).status).toBe('passed');
    expect(judgeGoldenGate([run(stable), run(stable)], 90_000, ID, { minPassingTests: 3, memoryMb: 512 }).status).toBe('refused');
  });

  it('describes a verdict in one line: flaky tests listed, a raised limit said', () => {
    const gate = judgeGoldenGate([run({ ...stable, 't::d': 'passed' }, { durationMs: 60_000 }), run(stable)], 90_000, ID);
    expect(describeGoldenGate(gate)).toBe(
      'golden gate pyledger: clean suite 60.0 s / 2.0 s, 4 tests, 1 flaky test(s) quarantined from the oracle sets: t::d; the clean suite is near the 90.0 s limit, so it is raised to 180.0 s',
    );
  });

  it('says when the tests ran as the sandbox\'s only user (bubblewrap, a non-root pod): grading there can be forged', () => {
    const docker = judgeGoldenGate([run(stable, { materialMode: 'read-only' }), run(stable, { materialMode: 'read-only' })], 90_000, ID);
    expect(docker).not.toHaveProperty('oneUser');
    expect(describeGoldenGate(docker)).not.toMatch(/only user/);
    const bwrap = judgeGoldenGate([run(stable, { materialMode: 'hash-only' }), run(stable, { materialMode: 'hash-only' })], 90_000, ID);
    expect(bwrap).toMatchObject({ status: 'passed', oneUser: true });
    expect(describeGoldenGate(bwrap)).toMatch(/WARNING: the tests run as the sandbox's only user, so code under test can forge a \+1 .*train on Docker or a root pod$/);
  });
});
