import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { positiveInt } from '../../util/flag-values.js';
import { loadCatalogue } from '../../catalogue/load-catalogue.js';
import { materialiseEntry } from '../../catalogue/materialise-entry.js';
import { catalogueRepoEntry, writeCatalogueRepos } from '../../catalogue/write-catalogue-repos.js';
import { ssrPath } from '../../util/ssr-home.js';
import { parseBuildRevs, prepareBuilds, removeBuilds, type BenchBuild } from '../../util/bench-builds.js';
import { corpusRunFigures, renderCorpusBench, type CorpusRunFigures } from './corpus-bench-figures.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/**
 * Entry of scripts/bench-corpus: `ssr corpus` (procedural policy, no Solver) over catalogue repos
 * at a fixed seed and episode budget, each repetition of each repo once per build, the builds'
 * order alternating between repetitions so a drift of the machine's load hits both alike.
 */
async function main(argv: string[]): Promise<void> {
  const options = new Command('bench-corpus')
    .option('--repos <ids>', 'comma-separated catalogue ids', 'minimist,toolz-history')
    .option('--per-repo <n>', 'injection episodes per repo and run', positiveInt('--per-repo'), 3)
    .option('--reps <n>', 'repetitions', positiveInt('--reps'), 3)
    .option('--seed <n>', 'run seed', '1')
    .option('--strategy <s>', 'injector strategy', 'mixed')
    .option('--builds <revs>', 'two git revs (before,after), each run from its own worktree; default: this checkout alone')
    .option('--cores <n>', 'cores the run is allotted, for core-seconds (default: the machine\'s)', positiveInt('--cores'))
    .option('--catalogue <dir>', 'catalogue folder', join(ROOT, 'catalogue'))
    .option('--dest <dir>', 'where catalogue-fetch materialises the repos', ssrPath('catalogue'))
    .option('--out <dir>', 'folder for the run dirs and the table')
    .parse(argv, { from: 'user' })
    .opts<{ repos: string; perRepo: number; reps: number; seed: string; strategy: string; builds?: string; cores?: number; catalogue: string; dest: string; out?: string }>();
  const revs = parseBuildRevs(options.builds);
  const catalogue = loadCatalogue(resolve(options.catalogue));
  const wanted = options.repos.split(',').map((id) => id.trim()).filter(Boolean);
  const unknown = wanted.filter((id) => !catalogue.some((entry) => entry.id === id));
  if (unknown.length > 0) throw new Error(`--repos: unknown catalogue id(s) ${unknown.join(', ')} (known: ${catalogue.map((e) => e.id).join(', ')})`);
  const outRoot = resolve(options.out ?? join(tmpdir(), `ssr-bench-corpus-${Date.now()}`));
  mkdirSync(outRoot, { recursive: true });
  const dest = resolve(options.dest);
  const reposFile = join(outRoot, 'repos.yaml');
  const entries = [];
  for (const entry of catalogue.filter((e) => wanted.includes(e.id))) {
    const built = await materialiseEntry(entry, { dest: join(dest, 'repos'), debCache: join(dest, 'debs'), npmCache: join(dest, 'npm'), npmLocks: join(resolve(options.catalogue), 'npm-locks') });
    entries.push(catalogueRepoEntry(entry, built));
  }
  await writeCatalogueRepos(reposFile, entries);
  const builds = prepareBuilds(revs, outRoot);
  try {
    await measure(builds, wanted, options, reposFile, outRoot);
  } finally {
    removeBuilds(builds);
  }
}

async function measure(builds: BenchBuild[], wanted: string[], options: { perRepo: number; reps: number; seed: string; strategy: string; cores?: number }, reposFile: string, outRoot: string): Promise<void> {
  const cores = options.cores ?? availableParallelism();
  // Untimed: the first run of a repo would otherwise pay for building its sandbox image.
  for (const repo of wanted) {
    for (const build of builds) {
      await run(process.execPath, ['--import', 'tsx', join(build.dir, 'src/cli/main.ts'), 'build-image', '--repos', reposFile, '--repo', repo], { cwd: build.dir, maxBuffer: 16 * 1024 * 1024 });
    }
  }
  const figures: CorpusRunFigures[] = [];
  for (let rep = 1; rep <= options.reps; rep++) {
    for (const repo of wanted) {
      for (const build of rep % 2 === 1 ? builds : [...builds].reverse()) {
        const out = join(outRoot, `${repo}-${builds.indexOf(build)}-rep${rep}`);
        const args = ['corpus', '--repos', reposFile, '--repo', repo, '--per-repo', String(options.perRepo), '--solve-attempts', '0',
          '--policy', 'procedural', '--strategy', options.strategy, '--seed', options.seed, '--out', out, '--json'];
        const loadStart = loadavg()[0]!;
        const started = Date.now();
        await run(process.execPath, ['--import', 'tsx', join(build.dir, 'src/cli/main.ts'), ...args], { cwd: build.dir, maxBuffer: 16 * 1024 * 1024 });
        const wallS = (Date.now() - started) / 1000;
        figures.push(await corpusRunFigures(out, { repo, build: build.label, rep, wallS, cores, load: [loadStart, loadavg()[0]!] }));
        process.stderr.write(`bench-corpus: ${repo} ${build.label} rep ${rep}: ${wallS.toFixed(0)} s, ${figures.at(-1)!.valid} valid (${out})\n`);
      }
    }
  }
  const table = renderCorpusBench(figures, { perRepo: options.perRepo, seed: options.seed, builds: builds.map((b) => b.label) });
  writeFileSync(join(outRoot, 'bench-corpus.md'), table);
  writeFileSync(join(outRoot, 'bench-corpus.json'), `${JSON.stringify(figures, null, 2)}\n`);
  process.stdout.write(table);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench-corpus: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
