import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedRepo } from '../../../../src/config/resolve-repo.js';
import { RunStore } from '../../../../src/corpus/run-store.js';
import { loadAnchorSet } from '../../../../src/selfplay/anchoring/load-anchor-set.js';
import { countAnchors } from '../../../../src/selfplay/anchoring/anchor-counts.js';
import { countEpisodes } from '../../../../src/selfplay/episode-counts.js';
import { buildStepSamples } from '../../../../src/selfplay/step-samples.js';
import { runCli } from '../../../helpers/cli.js';
import { makeBug, makeEpisode } from '../../corpus/corpus-factory.js';
import { exit, header, trajectory } from '../../rl/trajectory-factory.js';

const PYLEDGER = { id: 'pyledger', commit: 'a0fcf854bb26b37599c51843decfcb341a864f73' } as ResolvedRepo;
const O = 'f'.repeat(40);
const PATCH = 'diff --git a/lib/a.py b/lib/a.py\n--- a/lib/a.py\n+++ b/lib/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';
const TEST_PATCH = 'diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n@@ -1 +1,2 @@\n def test_a(): pass\n+def test_b(): assert x == 2\n';

describe('loadAnchorSet: a bad anchor set is refused before any episode, with what is wrong', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssr-anchor-set-'));
    const mined = await RunStore.open(join(dir, 'mined'), { command: 'mine', config: {} });
    await mined.writeBug(makeBug());
    await mined.writeBug(makeBug({ bugInject: makeBug().artifact.bugInject.replace('x - 1', 'x - 2') }));
    await mined.close();
    const other = await RunStore.open(join(dir, 'other'), { command: 'mine', config: {} });
    const bug = makeBug();
    await other.writeBug({ ...bug, metadata: { ...bug.metadata, repo: 'pytext' } });
    await other.close();
    await mkdir(join(dir, 'empty', 'bugs'), { recursive: true });
    await writeFile(join(dir, 'bad.jsonl'), `${JSON.stringify({ instance_id: 'i1', repo_id: 'pyledger', original_commit: O, patch: PATCH, test_patch: TEST_PATCH })}\n{nope\n`);
    await writeFile(join(dir, 'foreign.jsonl'), `${JSON.stringify({ instance_id: 'i1', repo: 'acme/lib', original_commit: O, environment_bundle: 'lib.bundle', patch: PATCH, test_patch: TEST_PATCH })}\n`);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const load = (set: string) => loadAnchorSet({ set: join(dir, set), repos: [PYLEDGER], seed: 0, imageExists: null });

  it.each([
    ['missing', 'nowhere', /--anchor-set .*nowhere: no such file or directory/],
    ['not a set', 'bad.jsonl/..', /--anchor-set .*: .* is not a run dir: it has no bugs\/ folder/],
    ['empty', 'empty', /--anchor-set .*empty: no valid real bug in it/],
    ['malformed', 'bad.jsonl', /--anchor-set .*bad\.jsonl: .*bad\.jsonl:2: not JSON/],
    ['of another repo (a bug dir)', 'other', /--anchor-set .*other: .*metadata\.json is a bug of repo pytext, not of this run's repos \(pyledger\)/],
    ['of another repo (a JSONL line with its own bundle)', 'foreign.jsonl', /--anchor-set .*foreign\.jsonl: 1 bug\(s\) of repos this run does not train on \(pyledger\): i1 \(repo acme__lib\)/],
  ])('%s', async (_what, set, message) => {
    await expect(load(set)).rejects.toThrow(message);
  });

  it("reads a mined set's bugs per repo, with their stored validation, in a seeded order", async () => {
    const bugs = await load('mined');
    expect(bugs.get('pyledger')).toHaveLength(2);
    expect(bugs.get('pyledger')!.every((bug) => bug.validation?.valid === true && bug.repo.commit === PYLEDGER.commit)).toBe(true);
    expect((await load('mined')).get('pyledger')!.map((bug) => bug.instanceId)).toEqual(bugs.get('pyledger')!.map((bug) => bug.instanceId));
  });
});

describe('ssr selfplay --anchor-set / --anchor-ratio flags', () => {
  it.each([
    [['--anchor-set', 'x', '--anchor-ratio', '0'], '--anchor-ratio: expected a number in (0, 1]'],
    [['--anchor-set', 'x', '--anchor-ratio', '1.5'], '--anchor-ratio: expected a number in (0, 1]'],
    [['--anchor-set', 'x', '--anchor-ratio', 'lots'], '--anchor-ratio: expected a number in (0, 1]'],
    [['--anchor-ratio', '0.25'], '--anchor-ratio needs --anchor-set'],
    [['--anchor-set', 'x', '--corpus', 'y'], '--anchor-set cannot be combined with --corpus'],
  ])('%j is a usage error naming the flag', async (args, message) => {
    const run = await runCli(['selfplay', '--repo', 'examples/pyrange', '--steps', '1', '--out', join(tmpdir(), 'ssr-anchor-never'), '--policy', 'procedural', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});

describe('anchor episodes in counts and samples', () => {
  const anchor = makeEpisode({ id: 'a1', strategy: 'anchor', anchor: true, bugId: 'bug-a', rewards: { injector: null, solver: [1, -1] }, solverAttempts: 2, solved: 1 });
  const synthetic = makeEpisode({ id: 's1', bugId: 'bug-s', rewards: { injector: 0.2, solver: [-1, -1] }, solverAttempts: 2, solved: 0 });

  it('are counted apart: not in the synthetic solve rate nor the Injector counts, but in the trained totals', () => {
    const counts = countEpisodes([anchor, synthetic]);
    expect(counts).toMatchObject({ solverAttempts: 4, solved: 1, valid: 1, validRate: 1, solveRate: { order1: 0 }, strategies: { removal: 1 } });
    expect(counts.rewards.solver).toEqual([1, -1, -1, -1]);
    expect(countAnchors([anchor, synthetic])).toEqual({ episodes: 1, discarded: 0, invalid: 0, solverAttempts: 2, solved: 1, solveRate: 0.5 });
  });

  it('give Solver samples in a group of their own, marked anchor: true', () => {
    const evidence = [anchor, synthetic].map((record) => ({
      record, commit: 'c0', injector: record.anchor ? null : trajectory({ header: header({ role: 'injector', episodeId: `${record.id}-inject` }) }), bug: null,
      attempts: record.rewards.solver.map((reward, i) => ({
        attempt: { id: `${record.id}-a${i + 1}`, status: reward > 0 ? ('solved' as const) : ('failed' as const), reward, exitStatus: 'submitted' as const, reason: '' },
        trajectory: trajectory({ header: header({ episodeId: `${record.id}-a${i + 1}` }), exit: exit('submitted') }),
      })),
    }));
    const samples = buildStepSamples(evidence, { trainRoles: 'both', limitHits: 'fail' });
    expect(samples.map((s) => [s.id, s.groupId, s.anchor ?? false])).toEqual([
      ['solver:a1-a1', 'solver:bug-a:order-1', true],
      ['solver:a1-a2', 'solver:bug-a:order-1', true],
      ['injector:s1-inject', 'injector:pyledger@c0:removal', false],
      ['solver:s1-a1', 'solver:bug-s:order-1', false],
      ['solver:s1-a2', 'solver:bug-s:order-1', false],
    ]);
  });
});
