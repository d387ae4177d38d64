import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodeRecordSchema, type EpisodeRecord } from '../../src/corpus/episode-record.js';
import { planStep } from '../../src/selfplay/stages/01-prepare.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { episodeLines, ROOT } from './selfplay-helpers.js';

const COMMIT = 'a0fcf854bb26b37599c51843decfcb341a864f73';
// Seed 0's mixed draw for 2 episodes is removal, then history: one of each kind, the least that
// shows the history draw adapted (and noted) beside a removal draw left as it was.
const EPISODES = 2;

/**
 * pyledger re-imported as ONE commit, as a packaged library often is: the default mix must not
 * plan history there (it would find nothing to revert), and must say so. Its min_passing_tests is
 * set out of reach, so every procedural removal episode gives up — recorded as a give-up, not as
 * format errors (the golden gate, which would refuse the repo for that threshold, is off).
 */
describe('ssr selfplay --strategy mixed on a one-commit repo (real Docker, real git)', () => {
  let root: string;
  let run: CliRun;
  let records: EpisodeRecord[];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-history-mix-'));
    const repo = join(root, 'flat');
    const git = (...args: string[]): string => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
    execFileSync('git', ['clone', '-q', join(ROOT, 'examples', 'pyledger.bundle'), repo]);
    git('checkout', '-q', COMMIT);
    git('checkout', '-q', '--orphan', 'flat');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'Import pyledger 1.0');
    const commit = git('rev-parse', 'HEAD');
    const reposFile = join(root, 'repos.yaml');
    await writeFile(
      reposFile,
      `repos:\n  - id: flat\n    source:\n      git: ${repo}\n      commit: ${commit}\n    image:\n      base: debian-python\n    thresholds:\n      min_passing_tests: 5000\n`,
    );
    run = await runCli([
      'selfplay', '--repo', 'flat', '--repos', reposFile, '--steps', '1', '--policy', 'procedural', '--seed', '0',
      '--episodes-per-step', String(EPISODES), '--attempts', '1', '--strategy', 'mixed', '--out', join(root, 'run'), '--json',
      // The out-of-reach min_passing_tests is for the Injector; the golden gate would refuse the repo for it.
      '--no-golden-gate',
    ]);
    if (run.code !== 0) throw new Error(`ssr selfplay exited ${run.code}:\n${run.stderr.slice(-3000)}`);
    records = episodeLines(join(root, 'run')).map((line) => episodeRecordSchema.parse(line));
  }, 900_000);

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('plans removal only, says so once in the log, and notes each episode whose draw was history', () => {
    expect(run.stderr).toContain('history not planned on flat (1 commit): its mixed episodes use removal');
    expect(records).toHaveLength(EPISODES);
    expect(records.every((r) => r.strategy === 'removal')).toBe(true);
    const drawn = planStep({ step: 1, repos: ['flat'], settings: { episodesPerStep: EPISODES, seed: 0, strategy: 'mixed' } });
    expect(drawn.map((p) => p.strategy)).toEqual(['removal', 'history']);
    const noted = new Set(records.filter((r) => r.strategyNote !== undefined).map((r) => r.id));
    expect(noted).toEqual(new Set(drawn.filter((p) => p.strategy === 'history').map((p) => p.id)));
  });

  it('records every give-up as a give-up with its reason, and counts it apart', () => {
    for (const record of records) {
      expect(record).toMatchObject({ status: 'completed', valid: null, injectorExit: { status: 'gave-up' } });
      expect(record.injectorExit!.reason).toMatch(/^No bug submitted \(removal strategy\): /);
    }
    const summary = JSON.parse(run.stdout) as { invalidByCheck: Record<string, number> };
    expect(summary.invalidByCheck).toEqual({ 'gave-up': EPISODES });
  });
});
