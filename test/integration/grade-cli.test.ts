import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_REPOS_YAML } from '../helpers/sandboxes.js';
import { runCli, type CliRun } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/artifacts/', import.meta.url));
const VALID = join(FIXTURES, 'valid-single-file');
const BUG = readFileSync(join(VALID, 'bug_inject.diff'), 'utf8');

/** The honest fix: bug_inject.diff with its two sides swapped (the buggy line back to the original). */
const HONEST = BUG.split('\n')
  .map((line) => (line.startsWith('-  ') ? `+${line.slice(1)}` : line.startsWith('+  ') ? `-${line.slice(1)}` : line))
  .join('\n');
/**
 * A cheat (the cheat suite's exit-zero-atexit, as a patch): package code that rewrites the log to
 * say PASSED and exits 0. ssr grade must hold it to the guard exactly as self-play does.
 */
const FORGE_LOG = readFileSync(fileURLToPath(new URL('../fixtures/grade/forge-log-at-exit.diff', import.meta.url)), 'utf8');
/** A patch that removes a line the buggy repo does not have (it was written against something else): no fuzz can place it. */
const STALE = HONEST.replace('parts[i]), -i))', 'parts[j]), -j))');

describe('ssr grade through the real CLI (pyledger, real Docker, real pytest)', () => {
  let dir: string;
  const patchFile = (name: string): string => join(dir, name);
  const grade = (args: string[]): Promise<CliRun> => runCli(['grade', '--repos', ROOT_REPOS_YAML, '--sandbox', 'docker', ...args]);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssr-grade-'));
    await writeFile(patchFile('honest.diff'), HONEST);
    await writeFile(patchFile('empty.diff'), '');
    await writeFile(patchFile('stale.diff'), STALE);
    await writeFile(patchFile('forge-log.diff'), FORGE_LOG);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('grades the honest fix +1 (exit 0) with the contract JSON', async () => {
    expect(HONEST).not.toBe(BUG);
    const { code, stdout, stderr } = await grade(['--repo', 'pyledger', '--artifact', VALID, '--patch', patchFile('honest.diff'), '--json']);
    const verdict = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(verdict)).toEqual(['reward', 'reason', 'applied', 'failingTests', 'droppedSections', 'flags', 'code']);
    expect(verdict, stderr).toMatchObject({ reward: 1, applied: 'git-apply', failingTests: [], droppedSections: [], flags: [], code: 'solved' });
    expect(verdict.reason).toMatch(/^solved: all 90 tests that pass on the original repo pass/);
    expect(code).toBe(0);
  });

  it('grades a no-op (empty) patch −1 (exit 1), naming the tests the bug still breaks', async () => {
    const { code, stdout, stderr } = await grade(['--repo', 'pyledger', '--artifact', VALID, '--patch', patchFile('empty.diff')]);
    expect(code, stderr).toBe(1);
    const [verdictLine, ...details] = stdout.trimEnd().split('\n');
    expect(verdictLine).toBe('-1 patch-empty: the patch is empty: it changes nothing; 3 of the 90 tests that pass on the original repo do not pass');
    expect(details).toContain('    tests/test_money.py::TestAllocation::test_allocate_by_ratio');
  });

  it('grades a cheat as self-play does: package code that forges the log is −1 tests-fail, the oracle tests it hid still failing (the log is not the tests\' to write, in ssr grade too)', async () => {
    const { code, stdout, stderr } = await grade(['--repo', 'pyledger', '--artifact', VALID, '--patch', patchFile('forge-log.diff'), '--json']);
    expect(code, stderr).toBe(1);
    const verdict = JSON.parse(stdout) as { reward: number; code: string; flags: string[]; failingTests: string[] };
    expect(verdict).toMatchObject({ reward: -1, code: 'tests-fail' });
    // The log belongs to the supervisor, not the tests' user: the rewrite fails, so the bug's tests
    // stay failed as the runner reported them (before that layer: `results-mismatch` from the guard).
    expect(verdict.failingTests).toContain('tests/test_money.py::TestAllocation::test_allocate_by_ratio');
  });

  it('grades a patch that does not apply −1 with code patch-does-not-apply (exit 1), not a crash', async () => {
    const { code, stdout, stderr } = await grade(['--repo', 'pyledger', '--artifact', VALID, '--patch', patchFile('stale.diff'), '--json']);
    expect(code, stderr).toBe(1);
    const verdict = JSON.parse(stdout) as { reward: number; code: string; reason: string; applied: unknown };
    expect(verdict).toMatchObject({ reward: -1, code: 'patch-does-not-apply', applied: null });
    expect(verdict.reason).toMatch(/^patch-does-not-apply: the patch does not apply/);
  });

  it.each([
    ['a missing patch file', ['--repo', 'pyledger', '--artifact', VALID, '--patch', '/nonexistent/fix.diff'], /--patch \/nonexistent\/fix\.diff: cannot read it \(ENOENT\)/],
    ['a missing artifact directory', ['--repo', 'pyledger', '--artifact', '/nonexistent/bug', '--patch', '@honest'], /artifact directory \/nonexistent\/bug does not exist/],
    ['an artifact with garbage in bug_inject.diff', ['--repo', 'pyledger', '--artifact', join(FIXTURES, 'garbage-diff'), '--patch', '@honest'], /bug_inject\.diff/],
    ['a missing repo', ['--repo', '/nonexistent/repo', '--artifact', VALID, '--patch', '@honest'], /--repo \/nonexistent\/repo: not an id in repos\.yaml/],
    ['an artifact that does not validate', ['--repo', 'pyledger', '--artifact', join(FIXTURES, 'bug-edits-test-file'), '--patch', '@honest'], /does not validate: rejected by existence: .*tests\/test_money\.py/],
  ])('exits 2 on bad input: %s', async (_name, args, message) => {
    const { code, stdout, stderr } = await grade(args.map((arg) => (arg === '@honest' ? patchFile('honest.diff') : arg)));
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });
});
