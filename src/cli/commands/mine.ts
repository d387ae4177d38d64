import { resolve } from 'node:path';
import type { Command } from 'commander';
import { formatMineSummary } from '../../mining/mine-summary.js';
import { runMine } from '../../mining/run-mine.js';
import { SKIP_REASONS } from '../../mining/skip-reasons.js';
import { AheadProvider } from '../../sandbox/pool/ahead-provider.js';
import { createProvider } from '../../sandbox/sandbox-factory.js';
import { releaseProvider } from '../../sandbox/pool/release-provider.js';
import type { ProgressEvent } from '../../util/progress.js';
import { addDockerHostOption, sandboxBackend } from '../docker-host-options.js';
import { addRepoOptions, addSandboxOption, positiveInt, resolveRepoOptions, type RepoOptions, type SandboxChoice } from '../common-options.js';
import { DEFAULT_VALIDATE_CONCURRENCY } from './validate.js';

interface MineFlags extends RepoOptions {
  max?: number;
  maxCommits?: number;
  since?: string;
  out: string;
  json?: boolean;
  concurrency: number;
  sandbox: SandboxChoice;
  dockerHost?: string[];
  keepImages?: boolean;
}

export function registerMine(program: Command): void {
  const command = program
    .command('mine')
    .description(
      "mine real bugs from a repo's history, newest first: commits whose added or changed tests fail on the parent's code and pass on the commit, " +
        'validated like a synthetic bug (golden gate, consistency checks, breadth, order independence) in the repo image at that commit; ' +
        `each becomes a bug dir under <out>/bugs/ (exportable with ssr export, evaluable with ssr eval). Skipped commits are counted by reason (${SKIP_REASONS.join(', ')}). ` +
        'Resumable: <out>/mined.jsonl records every commit judged. Exit 0 (also when none is found), 2 usage or infrastructure error',
    );
  addRepoOptions(command);
  command
    .option('--max <n>', 'stop once <out> holds this many real bugs', positiveInt('--max'))
    .option('--max-commits <n>', 'scan at most this many commits, newest first', positiveInt('--max-commits'))
    .option('--since <rev>', 'only commits after this revision (it and its ancestors are left out)')
    .requiredOption('--out <dir>', 'mined set: bugs/<bug-id>/ (five files, metadata.json, validation.json), mined.jsonl, mine.json')
    .option('--json', 'print the summary as one JSON line on stdout')
    .option('--keep-images', "keep the sandbox image built for each commit judged (default: removed once the commit is judged; the repo's pinned commit's image is always kept)")
    .option('--concurrency <n>', 'sandboxes running at once while validating', positiveInt('--concurrency'), DEFAULT_VALIDATE_CONCURRENCY);
  addSandboxOption(command);
  addDockerHostOption(command);
  command.action(async (options: MineFlags) => {
    const repo = await resolveRepoOptions(options);
    const backend = await sandboxBackend(options);
    // Validation's queued runs find their sandboxes started while the runs before them hold the slots (AheadProvider), as in ssr validate.
    const provider = new AheadProvider(createProvider(backend), options.concurrency);
    const out = resolve(options.out);
    const log = (line: string) => process.stderr.write(`ssr mine: ${line}\n`);
    const progress = (event: ProgressEvent) => {
      if (event.fraction === undefined) log(`${event.stage}: ${event.message}`);
    };
    try {
      const summary = await runMine({
        repo, backend, provider, out, concurrency: options.concurrency, onLine: log, progress, keepImages: options.keepImages === true,
        ...(options.max !== undefined ? { max: options.max } : {}),
        ...(options.maxCommits !== undefined ? { maxCommits: options.maxCommits } : {}),
        ...(options.since !== undefined ? { since: options.since } : {}),
      });
      process.stdout.write(options.json ? `${JSON.stringify(summary)}\n` : formatMineSummary(summary, out));
      process.exitCode = summary.infrastructure > 0 ? 2 : 0;
    } finally {
      await releaseProvider(provider, log);
    }
  });
}
