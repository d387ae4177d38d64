import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { z } from 'zod';
import { nonNegativeInt, positiveInt } from '../../util/flag-values.js';
import { loadCatalogue } from '../../catalogue/load-catalogue.js';
import { materialiseEntry } from '../../catalogue/materialise-entry.js';
import { catalogueRepoEntry, writeCatalogueRepos } from '../../catalogue/write-catalogue-repos.js';
import { readEpisodes } from '../../corpus/read-episodes.js';
import { runPaths } from '../../corpus/run-layout.js';
import { goldenGateSchema } from '../golden-gate/judge-golden-gate.js';
import { stepMetricsSchema } from '../step-metrics.js';
import { ssrPath } from '../../util/ssr-home.js';
import { episodeLoss, type EpisodeLoss } from './episode-loss.js';
import { runBenchSelfplay } from './run-bench-selfplay.js';
import { renderRealReposTable, type RealRepoRow } from './render-real-repos.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The failed check's own reason, from the bug's validation.json. */
function checkReason(out: string, bugId: string | null): string | undefined {
  if (bugId === null) return undefined;
  const file = join(runPaths(out).bugDir(bugId), 'validation.json');
  if (!existsSync(file)) return undefined;
  const parsed = z.looseObject({ checks: z.array(z.looseObject({ status: z.string(), reason: z.string() })).default([]) }).safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data.checks.find((check) => check.status !== 'pass')?.reason : undefined;
}

/** Read one finished run dir back into a table row. */
async function rowOf(repo: string, out: string): Promise<RealRepoRow> {
  const paths = runPaths(out);
  const gates = z.array(goldenGateSchema).parse(JSON.parse(readFileSync(paths.goldenGate, 'utf8')));
  const gate = gates.find((g) => g.repo === repo);
  const steps = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => stepMetricsSchema.parse(JSON.parse(line)));
  const records = (await readEpisodes(out)).filter((record) => record.order === 1);
  const byStrategy: Record<string, { valid: number; episodes: number }> = {};
  const losses: Array<EpisodeLoss & { episode: string; strategy: string }> = [];
  for (const record of records) {
    const tally = (byStrategy[record.strategy] ??= { valid: 0, episodes: 0 });
    tally.episodes += 1;
    const loss = episodeLoss(record, checkReason(out, record.bugId));
    if (loss === null) tally.valid += 1;
    else losses.push({ ...loss, episode: record.id, strategy: record.strategy });
  }
  return {
    repo,
    tests: gate?.status === 'passed' ? gate.tests : null,
    cleanS: gate?.status === 'passed' ? Math.min(...gate.cleanMs) / 1000 : null,
    byStrategy,
    stepS: steps.reduce((total, step) => total + step.durationMs, 0) / 1000,
    losses,
    notes: records.flatMap((record) => (record.strategyNote ? [record.strategyNote] : [])).slice(0, 1),
  };
}

/**
 * Entry of scripts/bench-real-repos: procedural self-play on each catalogue repo (materialised
 * first, offline when cached), one `ssr selfplay` step of N episodes with the default strategy
 * mix, and a table of yield per strategy, seconds per valid bug against the clean suite, and the
 * class and reason of every episode that gave no valid bug.
 */
async function main(argv: string[]): Promise<void> {
  const options = new Command('bench-real-repos')
    .option('--repos <ids>', 'comma-separated catalogue ids (default: all)')
    .option('--episodes <n>', 'order-1 episodes per repo', positiveInt('--episodes'), 4)
    .option('--attempts <n>', 'Solver attempts per valid bug (0: none, bug generation alone via ssr corpus)', nonNegativeInt('--attempts'), 0)
    .option('--strategy <s>', 'injector strategy (mixed: the default mix, adapted to each repo)', 'mixed')
    .option('--seed <n>', 'run seed', '1')
    .option('--catalogue <dir>', 'catalogue folder', join(ROOT, 'catalogue'))
    .option('--dest <dir>', 'where catalogue-fetch materialises the repos', ssrPath('catalogue'))
    .option('--mirror <dir>', 'local git mirrors for entries with upstream history')
    .option('--out <dir>', 'folder for the run dirs (one per repo)')
    .parse(argv, { from: 'user' })
    .opts<{ repos?: string; episodes: number; attempts: number; strategy: string; seed: string; catalogue: string; dest: string; mirror?: string; out?: string }>();
  const catalogue = loadCatalogue(resolve(options.catalogue));
  const wanted = options.repos?.split(',').map((id) => id.trim()).filter(Boolean);
  const unknown = (wanted ?? []).filter((id) => !catalogue.some((entry) => entry.id === id));
  if (unknown.length > 0) throw new Error(`--repos: unknown catalogue id(s) ${unknown.join(', ')} (known: ${catalogue.map((e) => e.id).join(', ')})`);
  const entries = catalogue.filter((entry) => wanted === undefined || wanted.includes(entry.id));
  const dest = resolve(options.dest);
  const reposFile = join(dest, 'repos.yaml');
  const outRoot = resolve(options.out ?? join(tmpdir(), `ssr-bench-real-repos-${Date.now()}`));
  mkdirSync(outRoot, { recursive: true });
  const rows: RealRepoRow[] = [];
  for (const entry of entries) {
    const out = join(outRoot, entry.id);
    try {
      const built = await materialiseEntry(entry, { dest: join(dest, 'repos'), debCache: join(dest, 'debs'), npmCache: join(dest, 'npm'), npmLocks: join(resolve(options.catalogue), 'npm-locks'), ...(options.mirror ? { mirror: resolve(options.mirror) } : {}) });
      await writeCatalogueRepos(reposFile, [catalogueRepoEntry(entry, built)]);
      await runBenchSelfplay({ repo: entry.id, reposFile, strategy: options.strategy, episodes: options.episodes, attempts: options.attempts, seed: options.seed, out });
      rows.push(await rowOf(entry.id, out));
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim().split('\n').slice(-2).join(' ');
      rows.push({ repo: entry.id, tests: null, cleanS: null, byStrategy: {}, stepS: 0, losses: [], notes: [], failure: stderr || (error as Error).message });
    }
    process.stderr.write(`bench-real-repos: ${entry.id} done (${out})\n`);
  }
  process.stdout.write(renderRealReposTable(rows, { episodes: options.episodes, attempts: options.attempts, strategy: options.strategy }));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench-real-repos: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
