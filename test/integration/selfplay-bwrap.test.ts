import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { episodeRecordSchema } from '../../src/corpus/episode-record.js';
import { runCli } from '../helpers/cli.js';
import { episodeLines } from './selfplay-helpers.js';

/**
 * Self-play on bubblewrap finds valid bugs in the example repo, as on Docker. The procedural
 * Injector writes its helper scripts to /tmp in one tool call and runs them in the next: when
 * every bwrap command got a fresh /tmp, every episode ended with nothing submitted. Bubblewrap has
 * one user only, so self-play there needs --allow-one-user-grading (golden-gate/one-user-policy.ts).
 */
describe('ssr selfplay --sandbox bwrap: one procedural step on pyledger (real bubblewrap, real pytest)', () => {
  let root: string | undefined;

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('yields valid bugs', async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-selfplay-bwrap-'));
    const out = join(root, 'run');
    // The Solver is not what this checks: one short attempt per bug, no order-2 bugs.
    const args = [
      'selfplay', '--repo', 'pyledger', '--sandbox', 'bwrap', '--policy', 'procedural', '--seed', '0', '--steps', '1',
      '--episodes-per-step', '2', '--attempts', '1', '--solver-max-turns', '4', '--higher-order-cap', '0', '--out', out, '--json',
    ];
    // On bubblewrap the tests run as the only user, where code under test can forge a +1: refused
    // before anything is built unless the run accepts it, and then it says so in run.json.
    const refused = await runCli(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/on the bwrap backend the tests always run as the sandbox's only user, so code under test can forge a \+1.*pass --allow-one-user-grading/);
    expect(existsSync(join(out, 'run.json'))).toBe(false);
    const run = await runCli([...args, '--allow-one-user-grading']);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'))).toMatchObject({ config: { allowOneUserGrading: true } });
    expect(JSON.parse(readFileSync(join(out, 'golden-gate.json'), 'utf8'))).toEqual([expect.objectContaining({ status: 'passed', oneUser: true })]);
    expect(run.stderr).toMatch(/bwrap template \S+ ready/);
    const summary = JSON.parse(run.stdout) as { episodes: number; valid: number; invalidByCheck: Record<string, number> };
    expect(summary.episodes).toBe(2);
    expect(summary.valid, JSON.stringify(summary.invalidByCheck)).toBeGreaterThanOrEqual(1);
    const valid = episodeLines(out)
      .map((line) => episodeRecordSchema.parse(line))
      .filter((record) => record.valid);
    expect(valid.length).toBeGreaterThanOrEqual(1);
    for (const record of valid) expect(existsSync(join(out, 'bugs', record.bugId!, 'bug_inject.diff')), record.bugId!).toBe(true);
  }, 600_000);
});
