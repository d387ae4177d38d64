import { cp, readFile, readdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRun } from '../../src/report/read-run.js';
import { dockerClient, imageExists } from '../../src/sandbox/docker/docker-client.js';
import { renderRunReport } from '../../src/report/render-report.js';
import { runCli } from '../helpers/cli.js';
import { ROOT_REPOS_YAML } from '../helpers/sandboxes.js';

// pyrange's history (examples/README.md): a root commit, two fixes with their regression tests,
// a code-only tidy-up, a tests-only commit and a behaviour-preserving change with a test that
// already passes on its parent. One mine and one eval are shared by every assertion.
const FIX_OVERLAP = '221fe485b1040fac98911bcef2697a81ff3ab45b';
const FIX_EXPONENT = '43723755025885e7b84b7d7b25e8d83f32c418a3';
// A synthetic pyrange bug as ssr corpus stored it (test/fixtures/realism/README.md).
const SYNTHETIC = fileURLToPath(new URL('../fixtures/realism/pyrange-synthetic', import.meta.url));

describe('ssr mine + ssr eval on pyrange (real git history, real Docker, real pytest)', () => {
  let root: string;
  const mined = () => join(root, 'mined');
  const evalDir = () => join(root, 'eval');
  const cli = (args: string[]) => runCli([...args, '--repos', ROOT_REPOS_YAML, '--sandbox', 'docker']);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-mine-eval-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('mines the two fix commits as real bugs and counts every other commit by reason; --max stops early and a rerun resumes', async () => {
    // Newest first: commit 6 (its test passes before), then the exponent fix, where --max 1 stops.
    const first = await cli(['mine', '--repo', 'pyrange', '--out', mined(), '--max', '1', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const firstSummary = JSON.parse(first.stdout) as { removedImages: string[]; sandboxesAhead: { started: number; served: number; unused: number } | null };
    expect(firstSummary).toMatchObject({ commitsListed: 6, scanned: 5, mined: 1, multiFile: 0, stoppedBy: 'max' });
    // Validation's runs drew sandboxes started ahead of them (AheadProvider); a commit whose validation stopped early leaves some unused.
    const ahead = firstSummary.sandboxesAhead!;
    expect(ahead.served).toBeGreaterThan(0);
    expect(ahead.served + ahead.unused).toBeLessThanOrEqual(ahead.started);
    expect(first.stderr).toMatch(/\[2\/3 candidates, 6 commits\] 437237550258 real bug bug-\w+ · 1 real bug\(s\) · ETA \S+/);
    // The image built for the exponent fix is gone once it is judged; the pinned commit's (the first candidate's, self-play's) stays.
    expect(firstSummary.removedImages).toEqual([expect.stringMatching(/^ssr-repo-pyrange:[0-9a-f]{12}$/)]);
    expect(await imageExists(dockerClient(), firstSummary.removedImages[0]!)).toBe(false);

    const { code, stdout, stderr } = await cli(['mine', '--repo', 'pyrange', '--out', mined(), '--json', '--keep-images']);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout) as { mined: number; bugIds: string[]; skipped: Record<string, number>; scanned: number; commitsListed: number };
    expect(summary).toMatchObject({ commitsListed: 6, scanned: 6, mined: 2, multiFile: 0, stoppedBy: 'history-end', infrastructure: 0, removedImages: [] });
    expect(summary.skipped).toEqual({
      'merge-commit': 0, 'root-commit': 1, 'shallow-boundary': 0, 'no-test-change': 1, 'no-code-change': 1, 'does-not-build': 0,
      'does-not-apply': 0, 'tests-do-not-fail-before': 1, 'tests-cannot-run-before': 0, flaky: 0, 'too-broad': 0, rejected: 0,
    });
    // Only the one candidate left was judged: the earlier run's verdicts were read back.
    expect(stderr).toMatch(/\[1\/1 candidates, 6 commits\] 221fe485b104 real bug/);
    const bugs = await Promise.all(summary.bugIds.map(async (id) => ({
      metadata: JSON.parse(await readFile(join(mined(), 'bugs', id, 'metadata.json'), 'utf8')) as { commit: string; strategy: string; mined: { subject: string } },
      validation: JSON.parse(await readFile(join(mined(), 'bugs', id, 'validation.json'), 'utf8')) as { valid: boolean; failToPass: string[] },
    })));
    const byCommit = new Map(bugs.map((bug) => [bug.metadata.commit, bug]));
    expect(byCommit.get(FIX_OVERLAP)).toMatchObject({ metadata: { strategy: 'mined', mined: { subject: 'Fix overlaps() for intervals that only touch' } }, validation: { valid: true } });
    expect(byCommit.get(FIX_OVERLAP)!.validation.failToPass.sort()).toEqual(['tests/test_interval.py::test_touching_intervals_do_not_overlap', 'tests/test_interval.py::test_touching_intervals_have_no_intersection']);
    expect(byCommit.get(FIX_EXPONENT)!.validation.failToPass).toEqual(['tests/test_text.py::test_parse_bounds_with_an_exponent']);

    const again = await cli(['mine', '--repo', 'pyrange', '--out', mined(), '--json']);
    // The window's totals read earlier runs back; this run judged nothing, so it has no rate of its own.
    expect(JSON.parse(again.stdout)).toMatchObject({ scanned: 6, mined: 2, bugIds: summary.bugIds, judgedNow: 0, minedNow: 0, secondsPerBug: null });
    expect(again.stderr).not.toContain('candidates');
    expect((await readFile(join(mined(), 'mined.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(6);
  }, 600_000);

  it('ssr eval --policy procedural over the mined set gives a table per repo and per bug kind, and a report page', async () => {
    const out = evalDir();
    const { code, stdout, stderr } = await cli(['eval', '--policy', 'procedural', '--set', mined(), '--attempts', '1', '--out', out, '--json']);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout) as { all: { instances: number; attempts: number; solved: number }; byRepo: { group: string }[]; byKind: { group: string; instances: number }[] };
    expect(summary.all).toMatchObject({ instances: 2, invalid: 0, attempts: 2 });
    expect(summary.byRepo.map((row) => row.group)).toEqual(['pyrange']);
    expect(summary.byKind).toEqual([expect.objectContaining({ group: 'mined', instances: 2, attempts: 2 })]);
    const attempts = (await readFile(join(out, 'attempts.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { reward: number | null });
    expect(attempts.map((a) => a.reward).filter((r) => r === 1 || r === -1)).toHaveLength(2);
    expect(summary.all.solved).toBe(attempts.filter((a) => a.reward === 1).length);
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain('<h2 id="eval">Held-out evaluation</h2>');
  }, 600_000);

  it('ssr selfplay --anchor-set solves the mined bugs as Solver groups: graded, marked and trained like synthetic bugs; a resume must keep the schedule', async () => {
    const out = join(root, 'anchored');
    // Ratio 1 of one slot: the step's one order-1 episode solves a mined bug (the mix of anchors and
    // injected bugs is unit-tested; an Injector's validation would add minutes of test runs here).
    const args = ['selfplay', '--repo', 'pyrange', '--policy', 'procedural', '--steps', '1', '--episodes-per-step', '1', '--attempts', '2',
      '--no-golden-gate', '--anchor-set', mined(), '--out', out, '--json'];
    const { code, stdout, stderr } = await cli([...args, '--anchor-ratio', '1']);
    expect(code, stderr).toBe(0);
    // The run's own bugs: none (the anchor is a real bug copied in, not the Injector's).
    expect(JSON.parse(stdout)).toMatchObject({ episodes: 1, valid: 0, solverAttempts: 2, bugQuality: { bugs: 0 } });
    expect(stderr).toContain(`anchoring: 2 real bug(s) from ${mined()}, 1 of each step's order-1 episodes`);
    const episodes = (await readFile(join(out, 'episodes.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(episodes).toHaveLength(1);
    const [anchor] = episodes as [{ anchor: boolean; bugId: string; strategy: string; status: string; valid: boolean; solverAttempts: number; solved: number; rewards: { injector: null; solver: number[] } }];
    expect(anchor).toMatchObject({ anchor: true, strategy: 'anchor', status: 'completed', valid: true, solverAttempts: 2, rewards: { injector: null } });
    // Graded as any bug: each scored attempt is ±1 with the grade's reason in the copied bug's solves.json, on the mined bug's own commit.
    const bugDir = join(out, 'bugs', anchor.bugId);
    const metadata = JSON.parse(await readFile(join(bugDir, 'metadata.json'), 'utf8')) as { commit: string; strategy: string };
    expect([FIX_OVERLAP, FIX_EXPONENT]).toContain(metadata.commit);
    expect(metadata.strategy).toBe('mined');
    const solves = JSON.parse(await readFile(join(bugDir, 'solves.json'), 'utf8')) as { attempts: { reward: number; reason: string }[] };
    expect(solves.attempts.map((a) => a.reward).sort()).toEqual([...anchor.rewards.solver].sort());
    expect(solves.attempts.every((a) => a.reason.length > 0)).toBe(true);
    // Trained as any bug: its attempts are one Solver group of the step's samples, marked anchor, with the group's advantages.
    const samples = (await readFile(join(out, 'samples', 'v0.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { groupId: string; anchor?: boolean; reward: number; advantage: number });
    expect(samples.map((sample) => [sample.groupId, sample.anchor])).toEqual([[`solver:${anchor.bugId}:order-1`, true], [`solver:${anchor.bugId}:order-1`, true]]);
    expect(samples.map((sample) => sample.reward).sort()).toEqual([...anchor.rewards.solver].sort());
    expect(samples[0]!.advantage + samples[1]!.advantage).toBeCloseTo(0);
    // Counted apart in metrics.jsonl and the summary: the anchor block; no synthetic solve rate, no Injector counts.
    const [metrics] = (await readFile(join(out, 'metrics.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { anchor: unknown; solveRate: unknown; strategies: unknown; solverAttempts: number });
    expect(metrics).toMatchObject({ anchor: { episodes: 1, discarded: 0, invalid: 0, solverAttempts: 2, solved: anchor.solved, solveRate: anchor.solved / 2 }, solveRate: { order1: null }, strategies: {}, solverAttempts: 2 });
    expect(stderr).toContain(`anchoring: 1 anchor episode(s), anchor solve rate ${anchor.solved * 50}% (${anchor.solved}/2)`);
    // Another ratio is another schedule: the run refuses to resume with it, before any episode.
    const again = await cli([...args, '--anchor-ratio', '0.5']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/cannot resume .* with different settings \(anchor\.ratio: 1 in the run, 0\.5 now\)/);
  }, 600_000);

  it('ssr realism puts the mined bugs beside synthetic ones of the same repo, with the solve rate of the eval above', async () => {
    const { code, stdout, stderr } = await runCli(['realism', '--synthetic', SYNTHETIC, '--real', mined(), '--real-eval', evalDir(), '--json']);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout) as { sharedRepos: string[]; all: Record<'synthetic' | 'real', { bugs: number; kinds: object; failingTests: object; files: object; sameChangeAsOther: number; solver: { attempts: number; solved: number } | null }> };
    expect(summary.sharedRepos).toEqual(['pyrange']);
    // The two fixes break 2 and 1 tests, each in one code file. The fixture's bugs break 7 and 1:
    // the history strategy's revert of the exponent fix is the mined exponent bug again.
    expect(summary.all.real).toMatchObject({ bugs: 2, kinds: { mined: 2 }, failingTests: { mean: 1.5, median: 1.5, max: 2 }, files: { max: 1 }, sameChangeAsOther: 1 });
    expect(summary.all.synthetic).toMatchObject({ bugs: 2, kinds: { 'remove-function-body': 1, 'revert-commit': 1 }, failingTests: { mean: 4, median: 4, max: 7 }, sameChangeAsOther: 1, solver: null });
    const evalSummary = JSON.parse(await readFile(join(evalDir(), 'eval.json'), 'utf8')) as { all: { attempts: number; solved: number } };
    expect(summary.all.real.solver).toMatchObject({ attempts: 2, solved: evalSummary.all.solved });
    const html = join(root, 'realism.html');
    const text = await runCli(['realism', '--synthetic', SYNTHETIC, '--real', mined(), '--real-eval', evalDir(), '--html', html]);
    expect(text.stdout).toMatch(/^ {2}failing tests \(FAIL_TO_PASS\)\s+4 \/ 4 \/ 7\s+1\.5 \/ 1\.5 \/ 2$/m);
    expect(await readFile(html, 'utf8')).toContain('<h2 id="realism">Realism</h2>');
  }, 60_000);

  it('exports the mined set with commit messages as problem statements; an eval set naming missing images is refused before any episode', async () => {
    const jsonl = join(root, 'export', 'set.jsonl');
    const exported = await runCli(['export', '--corpus', mined(), '--format', 'swe-bench', '--problem-statement', 'commit-message', '--out', jsonl, '--repos', ROOT_REPOS_YAML]);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = (await readFile(jsonl, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => (line.problem_statement as string).split('\n')[0]).sort()).toEqual(['Fix overlaps() for intervals that only touch', 'Fix parse_interval() for bounds written with an exponent']);
    const bad = join(root, 'export', 'missing-images.jsonl');
    await writeFile(bad, lines.map((line, i) => `${JSON.stringify({ ...line, image: `ssr-test/no-such-image:${i}` })}\n`).join(''));
    const refused = await cli(['eval', '--policy', 'procedural', '--set', bad, '--out', join(root, 'eval-bad')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/names 2 image\(s\) that do not exist on this machine/);
    expect(refused.stderr).toContain('ssr-test/no-such-image:0');
    expect(refused.stderr).toContain('ssr-test/no-such-image:1');
    expect(refused.stderr).not.toContain('instance(s) ×');
  }, 120_000);

  it('ssr selfplay --eval-set tracks a held-out solve rate that is never trained on (the starting policy too), refuses a bad set before any episode, and resumes without redoing an evaluation', async () => {
    const selfplay = (out: string, extra: string[]) => cli([
      'selfplay', '--repo', 'pyrange', '--policy', 'procedural', '--strategy', 'removal', '--steps', '1', '--episodes-per-step', '1', '--attempts', '1',
      '--higher-order-cap', '0', '--no-golden-gate', '--solver-max-turns', '4', '--out', out, ...extra,
    ]);
    const usage = await selfplay(join(root, 'run-usage'), ['--eval-every', '1']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--eval-every needs --eval-set');
    const missing = await selfplay(join(root, 'run-missing'), ['--eval-set', join(root, 'export', 'missing-images.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/names 2 image\(s\) that do not exist on this machine/);
    expect(missing.stderr).not.toContain('step 1 started');

    // The held-out set: one of the two mined bugs (different commits from the pinned one the run injects into: no overlap).
    const held = join(root, 'held');
    await cp(mined(), held, { recursive: true });
    const [kept, dropped] = (await readdir(join(held, 'bugs'))).sort();
    await rm(join(held, 'bugs', dropped!), { recursive: true });
    const run = join(root, 'run');
    const args = ['--eval-set', held, '--eval-every', '1', '--json'];
    const first = await selfplay(run, args);
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout.trim().split('\n').at(-1)!) as { heldOut?: unknown };
    // --eval-every: the starting policy is evaluated too, before step 1 samples (step 0).
    expect(summary.heldOut).toMatchObject([
      { step: 0, policyVersion: 0, instances: 1, attempts: 1, overlaps: 0, dir: 'eval/step-0' },
      { step: 1, policyVersion: 0, instances: 1, attempts: 1, overlaps: 0, dir: 'eval/step-1' },
    ]);
    expect(first.stderr.indexOf('held-out eval before step 1: 1 instance(s)')).toBeGreaterThan(-1);
    expect(first.stderr.indexOf('held-out eval before step 1: 1 instance(s)')).toBeLessThan(first.stderr.indexOf('step 1 started'));
    const startFile = join(run, 'eval', 'step-0', 'held-out.json');
    expect(JSON.parse(await readFile(startFile, 'utf8'))).toMatchObject({ set: held, policyVersion: 0, instances: 1, attempts: 1, retried: 0, discarded: 0, dir: 'eval/step-0' });
    const startAttempts = await readFile(join(run, 'eval', 'step-0', 'attempts.jsonl'), 'utf8');
    const metricsLine = async () => JSON.parse((await readFile(join(run, 'metrics.jsonl'), 'utf8')).trim()) as { step: number; heldOut: Record<string, unknown> };
    expect((await metricsLine()).heldOut).toMatchObject({ set: held, policyVersion: 0, instances: 1, invalid: 0, attempts: 1, overlaps: 0, dir: 'eval/step-1' });
    const attemptsFile = join(run, 'eval', 'step-1', 'attempts.jsonl');
    const attempts = await readFile(attemptsFile, 'utf8');
    expect(attempts.trim().split('\n').map((line) => (JSON.parse(line) as { instanceId: string }).instanceId)).toEqual([`pyrange__${kept}`]);

    // Never trained on: every sample is of the run's own episodes and bugs, one per Injector and Solver attempt of them.
    const episodes = (await readFile(join(run, 'episodes.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { id: string; bugId: string | null; solverAttempts: number });
    const samples = (await readFile(join(run, 'samples', 'v0.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { role: string; episodeId: string; bugId: string | null });
    expect(new Set(samples.map((sample) => sample.episodeId))).toEqual(new Set(episodes.map((episode) => episode.id)));
    expect(samples.filter((sample) => sample.role === 'solver')).toHaveLength(episodes.reduce((sum, episode) => sum + episode.solverAttempts, 0));
    expect(samples.some((sample) => sample.bugId === kept)).toBe(false);
    // The report's held-out line: the starting policy's point (step 0) and step 1's.
    expect(renderRunReport(await readRun(run), { linkBase: '' })).toContain('data-series="held-out (--eval-set, never trained on)" data-points="2"');

    // Killed after the evaluation, before the step's metrics line: the rerun finishes the step again without redoing a graded attempt.
    await writeFile(join(run, 'metrics.jsonl'), '');
    const again = await selfplay(run, args);
    expect(again.code, again.stderr).toBe(0);
    expect(await readFile(attemptsFile, 'utf8')).toBe(attempts);
    expect(again.stderr).not.toMatch(/\[1\/1\] pyrange__/);
    expect((await metricsLine()).heldOut).toMatchObject({ instances: 1, attempts: 1 });
    // The step-0 evaluation is read back, not redone: no new attempt, no evaluation line, the same point in the curve.
    expect(again.stderr).not.toContain('held-out eval before step 1');
    expect(await readFile(join(run, 'eval', 'step-0', 'attempts.jsonl'), 'utf8')).toBe(startAttempts);
    expect((JSON.parse(again.stdout.trim().split('\n').at(-1)!) as { heldOut: { step: number }[] }).heldOut.map((point) => point.step)).toEqual([0, 1]);
  }, 600_000);
});
