import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readCorpus } from '../../corpus/read-corpus.js';
import type { MineSummary } from '../../mining/mine-summary.js';
import { formatRealism } from '../../realism/format-realism.js';
import type { RealismSummary } from '../../realism/realism-summary.js';

/**
 * `scripts/bench-realism`: for one repo, mine real bugs (`ssr mine`), make synthetic ones with the
 * procedural Injector (`ssr corpus`), evaluate the procedural Solver on both (`ssr eval`), then
 * print the side-by-side table (`ssr realism`) and the mining yield. Every stage is the real CLI
 * in a process of its own, resumable in `--out` (a rerun redoes nothing finished).
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    repo: { type: 'string' },
    repos: { type: 'string' },
    'max-commits': { type: 'string', default: '200' },
    max: { type: 'string' },
    'per-repo': { type: 'string', default: '4' },
    attempts: { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
    sandbox: { type: 'string', default: 'docker' },
    out: { type: 'string' },
  },
});

/** Run `ssr <args>`: its progress on our stderr, its stdout returned, with the wall time. */
function ssr(args: string[]): Promise<{ stdout: string; seconds: number }> {
  const started = Date.now();
  // `ssr realism` only reads stored sets: it has no repos or sandbox to choose.
  const common = args[0] === 'realism' ? [] : [...(flags.repos ? ['--repos', resolve(flags.repos)] : []), '--sandbox', flags.sandbox!];
  return new Promise((done, fail) => {
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'src/cli/main.ts'), ...args, ...common], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done({ stdout, seconds: (Date.now() - started) / 1000 }) : fail(new Error(`ssr ${args[0]} exited ${code}: ${stdout.trim().slice(-400)}`))));
  });
}

async function validBugs(dir: string): Promise<number> {
  return existsSync(join(dir, 'bugs')) ? (await readCorpus(dir)).valid.length : 0;
}

async function evaluate(set: string, out: string): Promise<string | undefined> {
  if ((await validBugs(set)) === 0) return undefined;
  await ssr(['eval', '--policy', 'procedural', '--set', set, '--attempts', flags.attempts!, '--seed', flags.seed!, '--out', out, '--json']);
  return out;
}

async function bench(): Promise<void> {
  if (!flags.repo) throw new Error('--repo <id> is required: a repo id of --repos (default ./repos.yaml)');
  const out = resolve(flags.out ?? join('runs', `bench-realism-${flags.repo}`));
  await mkdir(out, { recursive: true });
  const [mined, synthetic] = [join(out, 'mined'), join(out, 'synthetic')];
  const mine = await ssr(['mine', '--repo', flags.repo, '--max-commits', flags['max-commits']!, ...(flags.max ? ['--max', flags.max] : []), '--out', mined, '--json']);
  const mining = JSON.parse(mine.stdout) as MineSummary;
  const corpus = await ssr(['corpus', '--repo', flags.repo, '--per-repo', flags['per-repo']!, '--policy', 'procedural', '--seed', flags.seed!, '--out', synthetic, '--json']);
  const realEval = await evaluate(mined, join(out, 'eval-real'));
  const syntheticEval = await evaluate(synthetic, join(out, 'eval-synthetic'));
  const realism = JSON.parse((await ssr(['realism', '--synthetic', synthetic, '--real', mined, ...(realEval ? ['--real-eval', realEval] : []), ...(syntheticEval ? ['--synthetic-eval', syntheticEval] : []), '--html', join(out, 'realism.html'), '--json'])).stdout) as RealismSummary;
  const syntheticBugs = await validBugs(synthetic);
  const result = {
    repo: flags.repo,
    mining: { commitsListed: mining.commitsListed, scanned: mining.scanned, realBugs: mining.mined, secondsPerRealBug: mining.secondsPerBug, skipped: mining.skipped, wallSeconds: mine.seconds },
    synthetic: { episodes: Number(flags['per-repo']), validBugs: syntheticBugs, wallSeconds: corpus.seconds },
    realism,
  };
  await writeFile(join(out, 'bench-realism.json'), `${JSON.stringify(result, null, 2)}\n`);
  const skipped = Object.entries(mining.skipped).filter(([, n]) => n > 0).map(([reason, n]) => `${reason} ${n}`).join(', ');
  process.stdout.write(
    `${flags.repo}: mining yield ${mining.mined} real bug(s) in ${mining.scanned} commit(s) scanned` +
      ` (${mining.secondsPerBug ?? '-'} s of judging per real bug; this run's ssr mine took ${Math.round(mine.seconds)} s)\n` +
      `  skipped: ${skipped || 'none'}\n` +
      `  synthetic: ${syntheticBugs} valid bug(s) from ${flags['per-repo']} procedural Injector episode(s) (ssr corpus took ${Math.round(corpus.seconds)} s)\n\n` +
      `${formatRealism(realism)}${realism.notes.map((note) => `note: ${note}\n`).join('')}wrote ${join(out, 'bench-realism.json')} and ${join(out, 'realism.html')}\n`,
  );
}

bench().catch((error: unknown) => {
  process.stderr.write(`bench-realism: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
