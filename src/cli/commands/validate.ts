import { cpus } from 'node:os';
import { Option, type Command } from 'commander';
import type { SelectTestsMode } from '../../validator/selection/plan-selection.js';
import { addBreadthOptions, type BreadthFlags } from '../breadth-options.js';
import { addDockerHostOption } from '../docker-host-options.js';
import { addRepoOptions, addSandboxOption, positiveInt, type RepoOptions, type SandboxChoice } from '../common-options.js';
import { testTimeoutOption } from '../test-timeout-option.js';

/** Flags of `ssr validate`. */
export interface ValidateOptions extends RepoOptions, BreadthFlags {
  artifact?: string;
  artifactList?: string;
  json?: boolean;
  testTimeout?: number;
  concurrency: number;
  selectTests?: SelectTestsMode;
  sandbox: SandboxChoice;
  /** --docker-host (repeatable). */
  dockerHost?: string[];
}

/** Sandboxes at once: every state is CPU-bound pytest, so about one per core (at least 2 so I/O overlaps). */
export const DEFAULT_VALIDATE_CONCURRENCY = Math.max(2, cpus().length);

export function registerValidate(program: Command): void {
  const command = program
    .command('validate')
    .description('run the consistency checks (method §3 plus breadth and order independence) on a bug artifact (exit 0 valid, 1 invalid, 2 usage/infrastructure error)');
  addRepoOptions(command);
  command
    .option('--artifact <dir>', 'artifact directory with the five files (bug_inject.diff, test_weaken.diff, test_files.txt, test_script.sh, test_parser.py)')
    .option('--artifact-list <file>', 'file with one artifact directory per line (relative to the file); prints one JSON line per artifact')
    .option('--json', 'print one JSON object (the verdict) on stdout instead of a table')
    .addOption(testTimeoutOption())
    .option('--concurrency <n>', 'sandboxes running at once', positiveInt('--concurrency'), DEFAULT_VALIDATE_CONCURRENCY)
    .addOption(
      new Option('--select-tests <mode>', "run only the tests relevant to each bug: auto (by the clean run's per-test coverage on any suite; by the import graph when coverage cannot say and the clean suite takes at least repos.yaml's test_selection.above_s, default 30 s), always, never (default: the repo's test_selection.mode)").choices([
        'auto',
        'always',
        'never',
      ]),
    );
  addBreadthOptions(command);
  addSandboxOption(command);
  addDockerHostOption(command);
  // The validator's stack (sandboxes, checks, zod schemas) loads only when the command runs:
  // `ssr validate --help` and a usage error need none of it (validate-run.ts).
  command.action(async (options: ValidateOptions) => (await import('./validate-run.js')).runValidate(options));
}
