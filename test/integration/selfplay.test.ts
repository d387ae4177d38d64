import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrajectory } from '../../src/agent/trajectory.js';
import { episodeRecordSchema, type EpisodeRecord } from '../../src/corpus/episode-record.js';
import { bugMetadataSchema } from '../../src/corpus/bug-metadata.js';
import { solvesRecordSchema } from '../../src/corpus/solves-record.js';
import { priorCodeChanges } from '../../src/roles/grading/prior-code-changes.js';
import { trainingSampleSchema, type TrainingSample } from '../../src/rl/training-sample.js';
import { planStep } from '../../src/selfplay/stages/01-prepare.js';
import { stepMetricsSchema } from '../../src/selfplay/step-metrics.js';
import { sumTestRuns } from '../../src/harness/test-run-counts.js';
import { episodeLines, ROOT } from './selfplay-helpers.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { expectLimitFollowsCleanRuns } from '../helpers/gate-limit.js';
import { goldenGateSchema } from '../../src/selfplay/golden-gate/judge-golden-gate.js';

const COMMIT = 'a0fcf854bb26b37599c51843decfcb341a864f73';
const ALPHA = 0.8;

/** method §5, written out again here so the test does not trust the engine's own scoreInjector. */
function expectedInjectorReward(solves: number, scored: number): number {
  const s = solves / scored;
  return s === 0 || s === 1 ? -ALPHA : 1 - (1 + ALPHA) * s;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** pyledger checked out at O in a scratch dir, to apply diffs with plain git. */
function checkout(dir: string): string {
  execFileSync('git', ['clone', '-q', join(ROOT, 'examples', 'pyledger.bundle'), dir]);
  execFileSync('git', ['-C', dir, 'checkout', '-q', COMMIT]);
  return dir;
}

function applyAll(dir: string, diffs: string[]): void {
  diffs.forEach((diff, i) => {
    const file = join(dir, `..`, `${i}-${Math.random().toString(36).slice(2)}.diff`);
    writeFileSync(file, diff);
    execFileSync('git', ['-C', dir, 'apply', '--whitespace=nowarn', file]);
  });
}

describe('ssr selfplay: one step on pyledger with the procedural policy (real Docker, real pytest)', () => {
  let root: string;
  let out: string;
  let reposFile: string;
  let summary: Record<string, unknown>;
  let code: number;
  let records: EpisodeRecord[];

  function cli(args: string[]): Promise<CliRun> {
    return runCli(args);
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-'));
    out = join(root, 'run');
    // pyledger as in repos.yaml, with bugs in two files: the procedural Solver, cut to 24 turns,
    // then often repairs one file and not the other, and those failed attempts grow order 2.
    reposFile = join(root, 'repos.yaml');
    await writeFile(
      reposFile,
      `repos:\n  - id: pyledger\n    source:\n      git: ${join(ROOT, 'examples', 'pyledger.bundle')}\n      commit: ${COMMIT}\n    image:\n      base: debian-python\n    thresholds:\n      min_changed_files: 2\n`,
    );
    const run = await cli([
      'selfplay', '--repo', 'pyledger', '--repos', reposFile, '--steps', '1', '--policy', 'procedural', '--seed', '0',
      '--episodes-per-step', '2', '--attempts', '2', '--strategy', 'direct', '--solver-max-turns', '24', '--out', out, '--json',
    ]);
    code = run.code;
    if (code !== 0) throw new Error(`ssr selfplay exited ${code}:\n${run.stderr.slice(-3000)}`);
    summary = JSON.parse(run.stdout) as Record<string, unknown>;
    records = episodeLines(out).map((line) => episodeRecordSchema.parse(line));
    expect(run.stderr).toMatch(/\[selfplay\] step 1\/1 · 1\/2 episodes · ETA /);
    // The run ends with the report's text summary: headline, step table, stability line.
    expect(run.stderr).toMatch(/^ssr selfplay: run .+: 1 step\(s\), \d+ episodes/m);
    expect(run.stderr).toMatch(/^step\s+eps\s+disc\s+valid\s+rejections\s+solve o1/m);
    expect(run.stderr).toMatch(/^stability \(step mean over both roles/m);
  }, 900_000);

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('prints exactly the summary keys and records the planned episodes once each', () => {
    expect(code).toBe(0);
    expect(Object.keys(summary).sort()).toEqual(['bugQuality', 'episodes', 'higherOrder', 'invalidByCheck', 'outDir', 'rewards', 'solved', 'solverAttempts', 'steps', 'valid'].sort());
    expect(summary).toMatchObject({ steps: 1, outDir: out, episodes: records.length });
    const planned = planStep({ step: 1, repos: ['pyledger'], settings: { episodesPerStep: 2, seed: 0, strategy: 'direct' } }).map((p) => p.id);
    expect(records.filter((r) => r.order === 1).map((r) => r.id).sort()).toEqual([...planned].sort());
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    expect(records.every((r) => r.status === 'completed')).toBe(true);
  });

  it("ran the golden gate before the episodes: pyledger's clean suite twice, nothing flaky, the limit kept unless the load pushed the suite near it; the procedural Solver reaches for no leak", () => {
    const gates = JSON.parse(readFileSync(join(out, 'golden-gate.json'), 'utf8')) as Array<Record<string, unknown>>;
    expect(gates).toEqual([expect.objectContaining({ status: 'passed', repo: 'pyledger', commit: COMMIT, quarantined: [] })]);
    // The 90 s limit is kept unless the machine is so loaded that the clean suite took over 45 s.
    const gate = goldenGateSchema.parse(gates[0]);
    if (gate.status === 'passed') expectLimitFollowsCleanRuns(gate, 90_000);
    expect(gates[0]!.tests as number).toBeGreaterThanOrEqual(60);
    expect(records.every((record) => Array.isArray(record.leaks) && record.leaks.length === 0)).toBe(true);
  });

  it('produces valid bugs whose rewards follow method §5, recomputed from solves.json', () => {
    const order1 = records.filter((r) => r.order === 1);
    expect(order1.filter((r) => r.valid).length).toBeGreaterThanOrEqual(1);
    for (const record of order1) {
      if (!record.valid) {
        expect(record.rewards).toEqual({ injector: -1, solver: [] });
        continue;
      }
      const solves = solvesRecordSchema.parse(readJson(join(out, 'bugs', record.bugId!, 'solves.json')));
      const mine = solves.attempts.filter((a) => a.id.startsWith(`${record.id}-a`));
      const scored = mine.filter((a) => a.status !== 'discarded');
      const solved = scored.filter((a) => a.status === 'solved').length;
      expect(mine).toHaveLength(2);
      expect(record.solverAttempts).toBe(scored.length);
      expect(record.solved).toBe(solved);
      expect(record.rewards.solver).toEqual(scored.map((a) => a.reward));
      expect(scored.every((a) => a.reward === (a.status === 'solved' ? 1 : -1))).toBe(true);
      expect(record.rewards.injector).toBeCloseTo(expectedInjectorReward(solved, scored.length), 12);
    }
    expect(summary.rewards).toEqual({ injector: order1.map((r) => r.rewards.injector).filter((r) => r !== null), solver: records.flatMap((r) => r.rewards.solver) });
  });

  it('grows order-2 bugs from failed attempts, with their lineage, and gives them no injector reward', async () => {
    const order2 = records.filter((r) => r.order === 2);
    expect(order2.length).toBeGreaterThanOrEqual(1);
    for (const child of order2) {
      const parent = records.find((r) => child.id.startsWith(`${r.id}-o2-`))!;
      expect(parent).toMatchObject({ order: 1, valid: true });
      expect(child.parentBugId).toBe(parent.bugId);
      const parentSolves = solvesRecordSchema.parse(readJson(join(out, 'bugs', parent.bugId!, 'solves.json')));
      expect(parentSolves.attempts.find((a) => a.id === child.attemptOf)?.status).toBe('failed');
      expect(child.rewards.injector).toBeNull();
      const metadata = bugMetadataSchema.parse(readJson(join(out, 'bugs', child.bugId!, 'metadata.json')));
      expect(metadata).toMatchObject({ order: 2, parentBugId: parent.bugId, attemptOf: child.attemptOf, episodeId: child.id, commit: COMMIT });

      // Its bug_inject.diff alone gives the state of the parent's bug plus the failed patch.
      const patch = (await readTrajectory(join(out, 'trajectories', `${child.attemptOf}.jsonl`))).exit!.submission;
      expect(patch?.type).toBe('solver');
      const parentDir = join(out, 'bugs', parent.bugId!);
      const testFiles = readFileSync(join(parentDir, 'test_files.txt'), 'utf8').split('\n').filter(Boolean);
      const codeChangesOf = (text: string, tests: string[]): string => {
        const code = priorCodeChanges(text, tests);
        if (code.status !== 'ok') throw new Error(`a combined bug's prior patch has no code change: ${code.reason}`);
        return code.patch;
      };
      const scratch = mkdtempSync(join(root, 'apply-'));
      const stepwise = checkout(join(scratch, 'a'));
      applyAll(stepwise, [readFileSync(join(parentDir, 'bug_inject.diff'), 'utf8'), codeChangesOf((patch as { patch: string }).patch, testFiles)]);
      const combined = checkout(join(scratch, 'b'));
      applyAll(combined, [readFileSync(join(out, 'bugs', child.bugId!, 'bug_inject.diff'), 'utf8')]);
      const diffOf = (dir: string) => execFileSync('git', ['-C', dir, 'diff', COMMIT], { encoding: 'utf8' });
      expect(diffOf(combined)).toBe(diffOf(stepwise));
      expect(diffOf(combined)).not.toBe('');
      if (child.solverAttempts > 0) {
        const childSolves = solvesRecordSchema.parse(readJson(join(out, 'bugs', child.bugId!, 'solves.json')));
        expect(child.rewards.solver).toEqual(childSolves.attempts.filter((a) => a.status !== 'discarded').map((a) => a.reward));
      }
    }
    expect(summary.higherOrder).toBe(order2.length);
    // An invalid bug is never a Solver task, whichever check failed (inverse-redundancy included).
    expect(records.filter((r) => r.valid !== true && r.solverAttempts > 0).map((r) => `${r.id}: ${r.failedCheck}`)).toEqual([]);
  });

  it('writes RL samples: one per rewarded trajectory, grouped, with leave-one-out advantages', async () => {
    const lines = (await readFile(join(out, 'samples', 'v0.jsonl'), 'utf8')).trim().split('\n');
    const samples: TrainingSample[] = lines.map((line) => trainingSampleSchema.parse(JSON.parse(line)));
    expect(new Set(samples.map((s) => s.id)).size).toBe(samples.length);
    const injector = samples.filter((s) => s.role === 'injector');
    expect(injector.map((s) => s.episodeId).sort()).toEqual(records.filter((r) => r.order === 1).map((r) => r.id).sort());
    for (const sample of injector) {
      expect(sample.reward).toBe(records.find((r) => r.id === sample.episodeId)!.rewards.injector);
      expect(sample.groupId).toBe(`injector:pyledger@${COMMIT}:direct`);
      expect(sample.messages).not.toBeNull();
    }
    const solver = samples.filter((s) => s.role === 'solver');
    expect(solver).toHaveLength(records.reduce((n, r) => n + r.solverAttempts, 0));
    for (const group of new Set(samples.map((s) => s.groupId))) {
      const members = samples.filter((s) => s.groupId === group && !s.masked);
      const sum = members.reduce((n, s) => n + s.reward, 0);
      for (const member of members) {
        const expected = members.length < 2 ? 0 : member.reward - (sum - member.reward) / (members.length - 1);
        expect(member.advantage).toBeCloseTo(expected, 12);
      }
    }
  });

  it('appends one metrics line that agrees with the episodes', async () => {
    const lines = (await readFile(join(out, 'metrics.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    const metrics = stepMetricsSchema.parse(JSON.parse(lines[0]!));
    expect(metrics).toMatchObject({
      step: 1, policyVersion: 0, episodes: records.length, discarded: 0, valid: summary.valid, solverAttempts: summary.solverAttempts,
      solved: summary.solved, higherOrder: summary.higherOrder, strategies: { direct: 2 }, trainer: null,
    });
    expect(metrics.samples.written).toBe((await readFile(join(out, 'samples', 'v0.jsonl'), 'utf8')).trim().split('\n').length);
    expect(metrics.bugSize.files.every((files) => files >= 2)).toBe(true);
    expect(Object.keys(metrics.operators).length).toBeGreaterThan(0);
    expect(metrics.turns.injector).toHaveLength(2);
  });

  it("counts every episode's test runs by kind, and the metrics line sums them", async () => {
    const metrics = stepMetricsSchema.parse(JSON.parse((await readFile(join(out, 'metrics.jsonl'), 'utf8')).trim()));
    expect(metrics.testRuns).toEqual(sumTestRuns(records.map((record) => record.testRuns)));
    const total = (record: EpisodeRecord, kind: string) => (record.testRuns?.[kind]?.full ?? 0) + (record.testRuns?.[kind]?.restricted ?? 0);
    // O runs twice per test script (the cache is keyed by it): a later bug with the same script reads them from the cache.
    for (const record of records) expect([undefined, 0, 2], record.id).toContain(record.testRuns?.original?.full);
    expect(records.reduce((sum, record) => sum + (record.testRuns?.original?.full ?? 0), 0)).toBeGreaterThanOrEqual(2);
    for (const record of records.filter((r) => r.order === 1 && r.valid === true)) {
      // The procedural Injector: its clean run in full (none when it restored the other episode's,
      // see DiscoveryMemo); candidates (on the test files that execute their lines, or in full) and
      // the weakened run on the oracle files only.
      const restored = record.injectPhasesMs?.trace === undefined;
      expect((record.testRuns?.injector?.full ?? 0) + (restored ? 1 : 0), record.id).toBeGreaterThanOrEqual(1);
      expect(record.testRuns?.injector?.restricted, record.id).toBeGreaterThanOrEqual(1);
      expect(total(record, 'buggy') + total(record, 'audit'), record.id).toBeGreaterThanOrEqual(1);
      expect(total(record, 'weakened'), record.id).toBe(1);
      // Two changed files: one inverse state each, neither O's tree.
      expect(total(record, 'inverse'), record.id).toBe(2);
      // Where its inject time went: the sandbox, then the Injector's phases, within the stage's time.
      const phases = record.injectPhasesMs ?? {};
      expect(Object.keys(phases), record.id).toEqual(expect.arrayContaining(['sandbox', 'discover', 'read', 'kept', 'confirm', 'weaken', 'write']));
      // Traced, or (the other episode's discovery kept in time) restored from its memo.
      expect(phases.trace ?? phases.memo, record.id).toBeGreaterThanOrEqual(0);
      expect(Object.values(phases).reduce((sum, ms) => sum + ms, 0), record.id).toBeLessThanOrEqual(record.durationsMs.inject);
    }
    const graded = records.reduce((sum, record) => sum + total(record, 'grading'), 0);
    expect(graded).toBeGreaterThanOrEqual(records.reduce((sum, record) => sum + record.solved, 0));
    expect(graded).toBeLessThanOrEqual(records.reduce((sum, record) => sum + record.solverAttempts, 0));
  });

  it('every kept bug dir re-validates with ssr validate to the verdict stored with it', async () => {
    const ids = (await readdir(join(out, 'bugs'))).filter((name) => !name.startsWith('.'));
    const list = join(root, 'bugs.txt');
    await writeFile(list, ids.map((id) => join(out, 'bugs', id)).join('\n'));
    const run = await cli(['validate', '--repo', 'pyledger', '--repos', reposFile, '--artifact-list', list]);
    const verdicts = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; valid: boolean; failedCheck: string | null });
    expect(verdicts).toHaveLength(ids.length);
    for (const [i, id] of ids.entries()) {
      const stored = readJson<{ valid: boolean; failedCheck: string | null }>(join(out, 'bugs', id, 'validation.json'));
      expect({ id, valid: verdicts[i]!.valid, failedCheck: verdicts[i]!.failedCheck }).toEqual({ id, valid: stored.valid, failedCheck: stored.failedCheck });
    }
  }, 600_000);
});
