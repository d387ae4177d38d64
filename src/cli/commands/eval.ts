import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { LeakPolicy } from '../../agent/leak-flag.js';
import { formatEvalTables } from '../../evaluation/eval-table.js';
import { evalPaths } from '../../evaluation/eval-log.js';
import { checkEvalConfig } from '../../evaluation/eval-config.js';
import { loadEvalSet } from '../../evaluation/load-eval-set.js';
import { runEval } from '../../evaluation/run-eval.js';
import { createPolicy, type PolicyFlags } from '../../policy/create-policy.js';
import { evalReportPage } from '../../report/eval-section.js';
import { createProvider } from '../../sandbox/sandbox-factory.js';
import { releaseProvider } from '../../sandbox/pool/release-provider.js';
import type { ProgressEvent } from '../../util/progress.js';
import { addAgentLimitOptions, agentLimitsFromFlags, type AgentLimitFlags } from '../agent-limit-options.js';
import { addSandboxOption, loadReposOption, positiveInt, type SandboxChoice } from '../common-options.js';
import { addDockerHostOption, sandboxBackend } from '../docker-host-options.js';
import { addLeakPolicyOption } from '../leak-policy-option.js';
import { addPolicyOptions } from '../policy-options.js';

interface EvalFlags extends PolicyFlags, AgentLimitFlags {
  set: string;
  attempts: number;
  out: string;
  json?: boolean;
  repos?: string;
  repo: string[];
  concurrency: number;
  leakPolicy: LeakPolicy;
  sandbox: SandboxChoice;
  dockerHost?: string[];
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerEval(program: Command): void {
  const command = program
    .command('eval')
    .description(
      'solve rate and pass@k of a policy on a held-out set, every attempt graded as ssr grade grades it, with a table per repo and per bug kind; ' +
        'the set is a run / corpus dir or a mined set (anything with bugs/), or a SWE-bench-format JSONL (ssr export, or instances naming their own image). ' +
        'Resumable: graded attempts in --out are not run again. Exit 0, 2 usage or infrastructure error (a set naming images not on this machine is refused before any episode)',
    )
    .requiredOption('--set <dir|file.jsonl>', 'held-out set: a dir with bugs/ (ssr selfplay, ssr corpus, ssr mine) or a SWE-bench-format .jsonl')
    .option('--attempts <k>', 'Solver attempts per instance (pass@k)', positiveInt('--attempts'), 1)
    .requiredOption('--out <dir>', 'eval dir: attempts.jsonl, instances.jsonl, attempts/<instance>/attempt-<n>/, eval.json, report.html')
    .option('--json', 'print eval.json on stdout instead of the tables')
    .option('--repos <file>', "where the set's repos come from (default: ./repos.yaml when present)")
    .option('--repo <path>', 'a local git repository a bug came from with --repo <path> (repeatable)', collect, [])
    .option('--concurrency <n>', 'attempts running at once', positiveInt('--concurrency'), 2);
  addPolicyOptions(command);
  addAgentLimitOptions(command);
  addLeakPolicyOption(command);
  addSandboxOption(command);
  addDockerHostOption(command);
  command.action(async (options: EvalFlags) => {
    const backend = await sandboxBackend(options);
    const { path: setPath, instances } = await loadEvalSet({ flag: '--set', set: options.set, repos: await loadReposOption(options.repos), repoPaths: options.repo, backend });
    const out = resolve(options.out);
    await mkdir(out, { recursive: true });
    const policy = await createPolicy(options);
    await checkEvalConfig(out, { set: setPath, policy: policy.name });
    const provider = createProvider(backend);
    const log = (line: string) => process.stderr.write(`ssr eval: ${line}\n`);
    try {
      log(`${instances.length} instance(s) × ${options.attempts} attempt(s) with ${policy.name}`);
      const summary = await runEval({
        set: setPath, instances, policy, backend, provider, attempts: options.attempts, concurrency: options.concurrency, out,
        limits: agentLimitsFromFlags(options), leakPolicy: options.leakPolicy, seed: options.seed ?? 0, onLine: log,
        progress: (event: ProgressEvent) => event.fraction === undefined && log(`${event.stage}: ${event.message}`),
      });
      await writeFile(evalPaths(out).report, evalReportPage(summary));
      process.stdout.write(options.json ? `${JSON.stringify(summary)}\n` : `${formatEvalTables(summary, options.attempts)}wrote ${evalPaths(out).report}\n`);
      process.exitCode = summary.notJudged > 0 ? 2 : 0;
    } finally {
      await releaseProvider(provider, log);
    }
  });
}
