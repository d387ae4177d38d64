import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { runGoldenGate } from '../../src/selfplay/golden-gate/run-golden-gate.js';
import { ssrPath } from '../../src/util/ssr-home.js';
import { dockerTemplate } from '../helpers/sandboxes.js';
import { expectLimitFollowsCleanRuns } from '../helpers/gate-limit.js';

const COINS = 16;
const FLAKY_TESTS = `import os, time


def test_stable():
    assert 1 + 1 == 2


def test_slow_enough_to_measure():
    time.sleep(5)

${Array.from({ length: COINS }, (_, i) => `\ndef test_coin_${i}():\n    assert os.urandom(1)[0] % 2 == 0\n`).join('')}`;

/**
 * A git repo whose suite has 16 coin-flip tests (the chance that two runs agree on all of them is
 * 2^-16), one stable test and one that sleeps 5 s; fixed path and dates keep its image tag.
 */
async function flakyRepo(): Promise<ResolvedRepo> {
  const dir = ssrPath('test-repos', 'flaky-v2');
  if (!existsSync(join(dir, '.git'))) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(join(dir, 'tests'), { recursive: true });
    await writeFile(join(dir, 'tests', 'test_flaky.py'), FLAKY_TESTS);
    const date = '2024-01-01T00:00:00Z';
    const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'flaky suite']]) execFileSync('git', ['-C', dir, ...args], { env, stdio: 'ignore' });
  }
  // The coin flips leave fewer than the 10 passing tests of method §3.3 in both runs; this suite is about
  // quarantine, not the gate's minimum, so it asks for one.
  const repo = await resolveRepo(dir, undefined);
  return { ...repo, thresholds: { ...repo.thresholds, min_passing_tests: 1 } };
}

/** A one-commit repo of `files` at a fixed path (so its image is built once per machine). */
async function fixtureRepo(name: string, files: Record<string, string>): Promise<ResolvedRepo> {
  const dir = ssrPath('test-repos', name);
  if (!existsSync(join(dir, '.git'))) {
    await rm(dir, { recursive: true, force: true });
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    const date = '2024-01-01T00:00:00Z';
    const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', name]]) execFileSync('git', ['-C', dir, ...args], { env, stdio: 'ignore' });
  }
  return resolveRepo(dir, undefined);
}

describe('the golden gate refuses bad repos before any episode, naming the fix (real Docker, real pytest)', () => {
  it.each([
    ['no tests pytest can find', 'gate-no-tests-v1', { 'lib/calc.py': 'def add(a, b):\n    return a + b\n', 'check_calc.py': 'from lib.calc import add\nassert add(1, 2) == 3\n' },
      /the clean test suite has no tests: pytest collected none \(its log ends: ".*no tests ran.*"\); ssr runs `python3 -m pytest` in \/repo .*add a pytest\.ini/],
    ['a suite that fails (an import the image lacks)', 'gate-failing-v1', { 'tests/test_needs.py': 'import ssr_no_such_module\n\n' + Array.from({ length: 12 }, (_, i) => `def test_${i}():\n    assert True\n`).join('\n') },
      /the clean test suite fails: 0 of 1 tests pass, fewer than thresholds\.min_passing_tests \(10\).*image\.packages, image\.setup in repos\.yaml/],
  ])('%s', async (_name, dir, files, reason) => {
    const repo = await fixtureRepo(dir, files);
    const verdict = await runGoldenGate({ repo, template: await dockerTemplate(repo), provider: createProvider('docker'), testTimeoutMs: 60_000 });
    expect(verdict.status === 'refused' && verdict.reason, JSON.stringify(verdict)).toMatch(reason);
  }, 600_000);
});

describe('the golden gate on a real repo (real Docker, real pytest)', () => {
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  beforeAll(async () => {
    repo = await flakyRepo();
    template = await dockerTemplate(repo);
  }, 600_000);
  const gate = (testTimeoutMs: number) => runGoldenGate({ repo, template, provider: createProvider('docker'), testTimeoutMs });

  it('quarantines exactly the tests whose outcome differs between the two clean runs', async () => {
    const verdict = await gate(60_000);
    expect(verdict).toMatchObject({ status: 'passed', repo: repo.id, tests: COINS + 2 });
    if (verdict.status === 'passed') expectLimitFollowsCleanRuns(verdict, 60_000);
    const quarantined = verdict.status === 'passed' ? verdict.quarantined : [];
    expect(quarantined.length).toBeGreaterThan(0);
    expect(quarantined.every((id) => /::test_coin_\d+$/.test(id))).toBe(true);
  });

  it('raises a limit the clean suite is near (over half of it) to 3× the slower run', async () => {
    // 5 s of sleep is over half of 9 s, so a suite that finishes is always raised. Beside many busy
    // containers the whole suite can take longer than 9 s (wall time, see gate-limit.ts): then the
    // gate must refuse it for the limit, and nothing else.
    const verdict = await gate(9_000);
    if (verdict.status === 'refused') {
      expect(verdict.reason).toMatch(/the clean test suite timed out at its 9\.0 s limit/);
      return;
    }
    expect(verdict.raisedFromMs).toBe(9_000);
    expect(verdict.testTimeoutMs).toBe(Math.ceil((3 * Math.max(...verdict.cleanMs)) / 1000) * 1000);
    expect(Math.max(...verdict.cleanMs)).toBeGreaterThan(4_500);
  });

  it('refuses the repo, saying what to change, when the clean suite times out', async () => {
    const verdict = await gate(2_000);
    expect(verdict).toMatchObject({ status: 'refused', reason: expect.stringMatching(/^repo flaky-v2-\w+: the clean test suite timed out at its 2\.0 s limit: raise limits\.test_timeout_s/) });
  });
});
