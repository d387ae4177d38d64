import { Command } from 'commander';
import { positiveInt, resolveRepoOptions } from '../common-options.js';
import type { SandboxBackend } from '../../sandbox/sandbox.js';
import { benchBackend, benchHostPython, renderBench, type BenchOutcome } from '../../sandbox/bench/sandbox-bench.js';

/** Entry of scripts/bench-sandbox: sandbox lifecycle cost per backend vs a bare host python3, and warm vs cold acquire. */
async function main(argv: string[]): Promise<void> {
  const options = new Command('bench-sandbox')
    .option('--runs <n>', 'measured runs per step', positiveInt('--runs'), 15)
    .option('--repo <id|path>', 'repo whose template to use', 'pyledger')
    .option('--repos <file>', 'repo set file (default: ./repos.yaml when present)')
    .option('--backends <list>', 'comma-separated backends to measure', 'docker,bwrap')
    .option('--warm <n>', 'also time acquire from a warm pool of n sandboxes, against the cold acquire of the same run', positiveInt('--warm'), 2)
    .option('--json', 'print the raw samples as JSON')
    .parse(argv, { from: 'user' })
    .opts<{ runs: number; repo: string; repos?: string; backends: string; warm: number; json?: boolean }>();
  const repo = await resolveRepoOptions({ repo: options.repo, repos: options.repos });
  const baseline = benchHostPython(options.runs);
  const outcomes: BenchOutcome[] = [];
  for (const backend of options.backends.split(',') as SandboxBackend[]) outcomes.push(await benchBackend(backend, repo, options.runs, options.warm));
  process.stdout.write(options.json ? `${JSON.stringify({ baseline, outcomes }, null, 2)}\n` : renderBench(baseline, outcomes, options.runs));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
