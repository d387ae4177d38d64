import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEvalSetFlags, heldOutPlanOf, type HeldOutRun } from '../../../src/cli/eval-set-options.js';
import type { ResolvedRepo } from '../../../src/config/resolve-repo.js';
import { HeldOutEval } from '../../../src/selfplay/held-out-eval.js';

const O = 'a'.repeat(40);
const PATCH = 'diff --git a/lib/a.py b/lib/a.py\n--- a/lib/a.py\n+++ b/lib/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';
const TEST_PATCH = 'diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n@@ -1 +1,2 @@\n def test_a(): pass\n+def test_b(): assert x == 2\n';
const line = (id: string, commit: string) => JSON.stringify({ instance_id: id, repo_id: 'lib', original_commit: commit, environment_bundle: 'lib.bundle', patch: PATCH, test_patch: TEST_PATCH });

describe('ssr selfplay --eval-set: the flags and the set, checked before any episode', () => {
  let dir: string;
  let warnings: string[];
  const run = (over: Partial<HeldOutRun> = {}): HeldOutRun => ({
    repos: [{ id: 'lib', commit: O } as ResolvedRepo], loaded: undefined, repoRefs: [], out: join(dir, 'run'), corpusDir: null, backend: 'bwrap', engines: 0,
    warn: (text) => void warnings.push(text), ...over,
  });
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssr-eval-set-option-'));
    await writeFile(join(dir, 'same-commit.jsonl'), `${line('lib-1', O)}\n${line('lib-2', 'b'.repeat(40))}\n`);
    await writeFile(join(dir, 'other-commit.jsonl'), `${line('lib-2', 'b'.repeat(40))}\n`);
    await writeFile(join(dir, 'broken.jsonl'), '{"instance_id": "x"}\n');
    await writeFile(join(dir, 'own-image.jsonl'), `${JSON.stringify({ ...JSON.parse(line('lib-3', 'c'.repeat(40))) as object, image: 'ssr-test/own:1' })}\n`);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('--eval-every or --eval-attempts without --eval-set is a usage error', async () => {
    expect(() => checkEvalSetFlags({ evalEvery: 2, evalOverlap: 'warn' })).toThrow(/--eval-every needs --eval-set/);
    expect(() => checkEvalSetFlags({ evalAttempts: 2, evalOverlap: 'warn' })).toThrow(/--eval-attempts needs --eval-set/);
    expect(() => checkEvalSetFlags({ evalAtStart: false, evalOverlap: 'warn' })).toThrow(/--no-eval-at-start needs --eval-set/);
    expect(() => checkEvalSetFlags({ evalAtStart: true, evalOverlap: 'warn' })).not.toThrow();
    await expect(heldOutPlanOf({ evalEvery: 2, evalOverlap: 'warn' }, run())).rejects.toThrow(/--eval-every needs --eval-set/);
    expect(await heldOutPlanOf({ evalOverlap: 'warn' }, run())).toBeUndefined();
  });

  it('a set that does not exist, is malformed, or is the run itself is refused, named', async () => {
    await expect(heldOutPlanOf({ evalSet: join(dir, 'nope'), evalOverlap: 'warn' }, run())).rejects.toThrow(/--eval-set .*nope: no such file or directory/);
    await expect(heldOutPlanOf({ evalSet: join(dir, 'broken.jsonl'), evalOverlap: 'warn' }, run())).rejects.toThrow(/broken\.jsonl:1: .*patch/);
    await expect(heldOutPlanOf({ evalSet: join(dir, 'run'), evalOverlap: 'warn' }, run())).rejects.toThrow(/is this run's --out/);
  });

  it('held-out bugs at the commit the run injects into: warn names them and goes on, refuse stops', async () => {
    warnings = [];
    const plan = await heldOutPlanOf({ evalSet: join(dir, 'same-commit.jsonl'), evalEvery: 3, evalOverlap: 'warn' }, run());
    expect(plan).toMatchObject({ every: 3, attempts: 1, instances: [{ instanceId: 'lib-1' }, { instanceId: 'lib-2' }] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/1 held-out instance\(s\) are bugs of a repo and commit this run injects into/);
    expect(warnings[0]).toContain(`lib-1 (lib@${O.slice(0, 12)})`);
    expect(warnings[0]).not.toContain('lib-2');
    await expect(heldOutPlanOf({ evalSet: join(dir, 'same-commit.jsonl'), evalOverlap: 'refuse' }, run())).rejects.toThrow(/--eval-overlap refuse: 1 held-out instance/);
    warnings = [];
    expect(await heldOutPlanOf({ evalSet: join(dir, 'other-commit.jsonl'), evalOverlap: 'refuse' }, run())).toMatchObject({ every: undefined });
    expect(warnings).toEqual([]);
  });

  it('--eval-every evaluates the starting policy too, unless --no-eval-at-start; the last step alone never does', async () => {
    const set = join(dir, 'other-commit.jsonl');
    expect(await heldOutPlanOf({ evalSet: set, evalEvery: 2, evalOverlap: 'warn', evalAtStart: true }, run())).toMatchObject({ every: 2, atStart: true });
    expect(await heldOutPlanOf({ evalSet: set, evalEvery: 2, evalOverlap: 'warn', evalAtStart: false }, run())).toMatchObject({ every: 2, atStart: false });
    expect(await heldOutPlanOf({ evalSet: set, evalOverlap: 'warn', evalAtStart: true }, run())).toMatchObject({ every: undefined, atStart: false });
  });

  it('--docker-host engines run the evaluation (on the first engine); only instances naming their own image are refused, named', async () => {
    expect(await heldOutPlanOf({ evalSet: join(dir, 'other-commit.jsonl'), evalOverlap: 'warn' }, run({ engines: 2 }))).toMatchObject({ instances: [{ instanceId: 'lib-2' }] });
    // bwrap: the image's existence is not checked here, so the refusal is the engines' alone.
    await expect(heldOutPlanOf({ evalSet: join(dir, 'own-image.jsonl'), evalOverlap: 'warn' }, run({ engines: 2 })))
      .rejects.toThrow(/own-image\.jsonl: 1 instance\(s\) name their own Docker image \(lib-3 \(ssr-test\/own:1\)\), which ssr does not check or ship to --docker-host engines/);
    expect(await heldOutPlanOf({ evalSet: join(dir, 'own-image.jsonl'), evalOverlap: 'warn' }, run())).toMatchObject({ instances: [{ instanceId: 'lib-3' }] });
  });

  it('a run whose earlier steps were evaluated on another set is refused: one curve, one set', () => {
    const heldOut = new HeldOutEval({ set: '/sets/b', instances: [], every: 1, attempts: 1, atStart: true }, { out: dir, backend: 'bwrap', steps: 2, log: () => {} });
    const earlier = { set: '/sets/a', policyVersion: 0, instances: 1, invalid: 0, notJudged: 0, attempts: 1, solved: 0, solveRate: 0, passAt1: 0, overlaps: 0, dir: 'eval/step-1' };
    expect(() => heldOut.checkEarlier([{ heldOut: earlier }])).toThrow(/earlier steps were evaluated on \/sets\/a/);
    expect(() => heldOut.checkEarlier([{ heldOut: { ...earlier, set: '/sets/b' } }, {}])).not.toThrow();
  });
});
