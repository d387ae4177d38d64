import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrajectory } from '../../src/agent/trajectory.js';
import { parseUnifiedDiff } from '../../src/code/unified-diff.js';
import { episodeRecordSchema, type EpisodeRecord } from '../../src/corpus/episode-record.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { episodeLines } from './selfplay-helpers.js';

// The seed and episode count give, on tskit's fixed commit, a valid bug the Solver repairs: the
// procedural policy is deterministic given them (operators, weakening, localisation, tried edits)
// and the tests' outcomes, not their timing, decide every step. Seed 0: episode 0's Injector gives
// up (its weakening hides none of the failing tests); episode 1 negates caret()'s test in
// src/range.ts (`if (!(v.major > 0))`), which per-test coverage ranks first and a comparison swap
// repairs in a few tried edits (the static by-name spectrum never reached it). Two episodes run
// side by side (--episode-concurrency defaults to 2).
const SEED = '0';
const EPISODES = 2;

/**
 * `ssr selfplay --repo tskit --policy procedural` (issue #16): on the TypeScript example (Vitest 2,
 * Node 18 in the sandbox) the procedural Injector breaks a .ts module and hides the failures, the
 * real validator keeps the bug, and the procedural Solver repairs it: it localises by per-test
 * coverage mapped through Vitest's source maps (vitest_coverage.mjs), tries inverse operators at
 * the suspicious .ts lines, and its patch passes the hidden tests (+1). Real Docker, one run.
 */
describe('ssr selfplay on the tskit example with the procedural policy (real Docker, Vitest)', () => {
  let root: string;
  let out: string;
  let run: CliRun;
  let records: EpisodeRecord[];
  const readJson = <T>(...parts: string[]): T => JSON.parse(readFileSync(join(out, ...parts), 'utf8')) as T;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-tskit-'));
    out = join(root, 'run');
    run = await runCli([
      'selfplay', '--repo', 'tskit', '--steps', '1', '--policy', 'procedural', '--seed', SEED,
      '--episodes-per-step', String(EPISODES), '--attempts', '1', '--strategy', 'direct', '--higher-order-cap', '0',
      '--solver-max-turns', '48', '--out', out, '--json',
    ]);
    if (run.code !== 0) throw new Error(`ssr selfplay exited ${run.code}:\n${run.stderr.slice(-3000)}`);
    records = episodeLines(out).map((line) => episodeRecordSchema.parse(line));
    // A cold machine builds the Node rootfs and the tskit image first (debootstrap, npm ci: minutes).
  }, 2_400_000);

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('gives a valid bug in .ts code, hidden in its Vitest test files', () => {
    expect(readJson<Array<Record<string, unknown>>>('golden-gate.json')).toEqual([expect.objectContaining({ status: 'passed', repo: 'tskit', quarantined: [] })]);
    const valid = records.filter((r) => r.order === 1 && r.valid === true);
    expect(valid.length, JSON.stringify(records.map((r) => [r.id, r.valid, r.failedCheck, r.injectorExit]))).toBeGreaterThanOrEqual(1);
    for (const record of valid) {
      const validation = readJson<{ valid: boolean; failToPass: string[] }>('bugs', record.bugId!, 'validation.json');
      expect(validation.valid).toBe(true);
      for (const id of validation.failToPass) expect(id).toMatch(/^test\/[\w-]+\.test\.ts > .+$/);
      const code = parseUnifiedDiff(readFileSync(join(out, 'bugs', record.bugId!, 'bug_inject.diff'), 'utf8')).touchedPaths;
      for (const file of code) expect(file).toMatch(/^src\/[\w-]+\.ts$/);
    }
  });

  it('the Solver repairs a valid bug (+1), localising by per-test coverage of the .ts lines', async () => {
    const solved = records.filter((r) => r.order === 1 && r.valid === true && r.solved > 0);
    expect(solved.length, JSON.stringify(records.map((r) => [r.id, r.valid, r.solved, r.rewards.solver]))).toBeGreaterThanOrEqual(1);
    const record = solved[0]!;
    expect(record.rewards.solver).toContain(1);
    // Its own helper files reach for nothing a Solver must not (its parser once bore an artifact file's name).
    expect(record.leaks ?? []).toEqual([]);
    const attempt = await readTrajectory(join(out, 'trajectories', `${record.id}-a1.jsonl`));
    const observations = attempt.steps.flatMap((step) => step.observations.map((o) => String(o.content ?? ''))).join('\n');
    // The spectrum came from coverage, not the static by-name fallback, and names .ts lines.
    expect(observations).toMatch(/^#spectrum failed=\d+ passed=\d+/m);
    expect(observations).not.toContain('#spectrum-static');
    expect(observations).toMatch(/^src\/[\w-]+\.ts\t\d+\t\d+\t\d+$/m);
    // Its kept edit is one of the engine's inverse operators on a .ts line.
    const summary = attempt.steps.filter((step) => step.toolCall === undefined).at(-1)?.assistant.content ?? '';
    expect(summary).toMatch(/src\/[\w-]+\.ts:\d+/);
  });
});
