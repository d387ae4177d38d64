import { Command } from 'commander';
import { benchValidate, DEFAULT_BENCH_ARTIFACT, DEFAULT_BENCH_LIST } from '../../validator/bench/validate-bench.js';
import { positiveInt, resolveRepoOptions } from '../common-options.js';

/** Entry of scripts/bench-validate: `ssr validate` wall time vs the same test runs done bare, one after another. */
async function main(argv: string[]): Promise<void> {
  const options = new Command('bench-validate')
    .option('--runs <n>', 'repetitions of each measurement (median reported)', positiveInt('--runs'), 3)
    .option('--repo <id|path>', 'repo of the artifact', 'pyledger')
    .option('--artifact <dir>', 'artifact directory', DEFAULT_BENCH_ARTIFACT)
    .option('--list <dirs...>', 'valid artifacts validated together with --artifact-list (the bugs of one run); "none" skips it', DEFAULT_BENCH_LIST)
    .parse(argv, { from: 'user' })
    .opts<{ runs: number; repo: string; artifact: string; list: string[] }>();
  const repo = await resolveRepoOptions({ repo: options.repo });
  process.stdout.write(await benchValidate({ runs: options.runs, repoArg: options.repo, repo, artifactDir: options.artifact, listDirs: options.list.filter((dir) => dir !== 'none') }));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench-validate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
