import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { exportArtifactDirs } from '../../corpus/export-artifact-dirs.js';
import { exportRepoSources } from '../../corpus/export-repo-sources.js';
import { readCorpus } from '../../corpus/read-corpus.js';
import { readSolverAttempts } from '../../corpus/read-solver-attempts.js';
import { nthAttempts, writeMiniSweAgentDir, writePredictions } from '../../corpus/write-attempt-exports.js';
import { bundlesDir, writeSweBenchExport } from '../../corpus/write-swe-bench-export.js';
import type { ProblemStatementSource } from '../../corpus/export-swe-bench.js';
import { loadReposOption, positiveInt } from '../common-options.js';

const FORMATS = ['swe-bench', 'ssr', 'swe-bench-predictions', 'mini-swe-agent'] as const;

interface ExportOptions {
  corpus: string;
  format: (typeof FORMATS)[number];
  out: string;
  repos?: string;
  repo: string[];
  attempt?: number;
  json?: boolean;
  problemStatement: ProblemStatementSource;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('export the valid bugs of a run dir as runnable SWE-bench instances or artifact directories, or its Solver attempts as SWE-bench predictions or mini-swe-agent trajectories')
    .requiredOption('--corpus <dir>', 'run dir written by ssr selfplay or ssr corpus (--out)')
    .addOption(
      new Option(
        '--format <format>',
        'swe-bench: one instance per line in --out (a .jsonl file) and the git bundles of its commits in <out>.repos/; ssr: one artifact directory per bug under --out; ' +
          'swe-bench-predictions: one prediction per scored Solver attempt in --out (JSONL); mini-swe-agent: <out>/<instance_id>/<attempt>.traj.json per scored attempt',
      )
        .choices(FORMATS)
        .default('swe-bench'),
    )
    .requiredOption('--out <path>', 'output file (swe-bench, swe-bench-predictions) or directory (ssr, mini-swe-agent)')
    .option('--repos <file>', 'swe-bench: where the bugs\' repos come from (default: ./repos.yaml when present)')
    .option('--repo <path>', 'swe-bench: a local git repository a bug came from with --repo <path> (repeatable)', collect, [])
    .option('--attempt <n>', 'swe-bench-predictions, mini-swe-agent: only the n-th scored attempt of each bug (SWE-bench keeps one prediction per instance)', positiveInt('--attempt'))
    .addOption(
      new Option('--problem-statement <source>', "swe-bench: the instances' problem_statement: the Solver's statement (the test change), or for real bugs mined by ssr mine their fix commit's message")
        .choices(['solver', 'commit-message'])
        .default('solver'),
    )
    .option('--json', 'print a JSON summary on stdout')
    .action(async (options: ExportOptions) => {
      const out = resolve(options.out);
      const corpusDir = resolve(options.corpus);
      const corpus = await readCorpus(corpusDir);
      const summary: Record<string, unknown> = { format: options.format, out, exported: corpus.valid.length, invalid: corpus.invalid, incomplete: corpus.incomplete.length };
      let what = 'valid bugs';
      if (options.format === 'swe-bench') {
        const ids = [...new Set(corpus.valid.map((bug) => bug.metadata.repo))];
        const sources = await exportRepoSources(ids, await loadReposOption(options.repos), options.repo.map((path) => resolve(path)));
        await writeSweBenchExport(corpus.valid, sources, out, options.problemStatement);
        summary.bundles = bundlesDir(out);
      } else if (options.format === 'ssr') {
        await exportArtifactDirs(corpus.valid, out);
      } else {
        const read = await readSolverAttempts(corpusDir, corpus.valid);
        const attempts = options.attempt === undefined ? read.attempts : nthAttempts(read.attempts, options.attempt);
        if (options.format === 'swe-bench-predictions') await writePredictions(attempts, out);
        else await writeMiniSweAgentDir(attempts, out);
        Object.assign(summary, { exported: attempts.length, missingTrajectories: read.missing.length });
        what = `Solver attempts of ${corpus.valid.length} valid bugs${read.missing.length > 0 ? `, ${read.missing.length} without a trajectory left out` : ''}`;
      }
      if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else {
        const skipped = `${corpus.invalid} invalid${corpus.incomplete.length > 0 ? `, ${corpus.incomplete.length} incomplete` : ''} left out`;
        process.stdout.write(`exported ${String(summary.exported)} ${what} (${skipped}) to ${out}\n`);
      }
    });
}
