import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { benchValidate, DEFAULT_BENCH_ARTIFACT, DEFAULT_BENCH_LIST } from '../../validator/bench/validate-bench.js';
import { parseBuildRevs, prepareBuilds, removeBuilds } from '../../util/bench-builds.js';
import { nonNegativeInt, positiveInt } from '../../util/flag-values.js';
import { resolveRepoOptions } from '../common-options.js';

/** Entry of scripts/bench-validate: `ssr validate` wall time vs the same test runs done bare, and ssr's overhead per test run. */
async function main(argv: string[]): Promise<void> {
  const options = new Command('bench-validate')
    .option('--runs <n>', 'repetitions of each measurement (median reported)', positiveInt('--runs'), 3)
    .option('--repo <id|path>', 'repo of the artifact', 'pyledger')
    .option('--repos <file>', 'repos.yaml that names --repo (default: ./repos.yaml)')
    .option('--artifact <dir>', 'artifact directory ("-": the repo\'s own default script and parser, with --no-validate)', DEFAULT_BENCH_ARTIFACT)
    .option('--list <dirs...>', 'valid artifacts validated together with --artifact-list (the bugs of one run); "none" skips it', DEFAULT_BENCH_LIST)
    .option('--overhead-pairs <n>', 'bare/ssr run pairs per build and repetition in the per-run section (0 skips it)', nonNegativeInt('--overhead-pairs'), 3)
    .option('--no-validate', 'the per-run section alone: no `ssr validate` runs')
    .option('--builds <revs>', 'two git revs (before,after), each run from its own worktree, alternated; default: this checkout alone')
    .parse(argv, { from: 'user' })
    .opts<{ runs: number; repo: string; repos?: string; artifact: string; list: string[]; overheadPairs: number; builds?: string; validate: boolean }>();
  const repo = await resolveRepoOptions({ repo: options.repo, ...(options.repos ? { repos: options.repos } : {}) });
  const builds = prepareBuilds(parseBuildRevs(options.builds), join(tmpdir(), `ssr-bench-validate-${process.pid}`));
  try {
    process.stdout.write(await benchValidate({ runs: options.runs, repoArg: options.repo, repo, artifactDir: options.artifact, listDirs: options.list.filter((dir) => dir !== 'none'), builds, overheadPairs: options.overheadPairs, validate: options.validate, ...(options.repos ? { reposFile: options.repos } : {}) }));
  } finally {
    removeBuilds(builds);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench-validate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
